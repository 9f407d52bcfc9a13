/// The registry's wrapper passes pointer decoding through to the format's decoder, under the format's id.
extension FormatDecoder {
    var decodesAtPointer: Bool { base.decodesAtPointer }

    func decode<T: Decodable>(_ type: T.Type, from response: Response, at pointer: JSONPointer) throws -> T {
        do {
            return try base.decode(type, from: response, at: pointer)
        } catch {
            throw SerializationError(
                wrapping: error, serializerID: id, mediaType: response.contentType, response: response)
        }
    }

    func value(from response: Response, at pointer: JSONPointer) throws -> any Sendable {
        do {
            return try base.value(from: response, at: pointer)
        } catch {
            throw SerializationError(
                wrapping: error, serializerID: id, mediaType: response.contentType, response: response)
        }
    }
}

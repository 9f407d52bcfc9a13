import DecantCore
import Foundation

// The test serializers the configuration tests need, as DecantCoreTests has them (test targets cannot share files).

/// Returns `"<id>:<body as UTF-8>"`, so tests see which serializer ran; fails when the body starts with `!`.
struct TaggingSerializer: ResponseSerializer {
    var id: SerializerID
    var ranges: [MediaRange]
    var mediaRanges: [MediaRange] { ranges }

    init(_ id: SerializerID, _ ranges: String...) {
        self.id = id
        self.ranges = ranges.map { MediaRange($0)! }
    }

    func serialize(_ response: Response) throws -> String {
        let text = String(decoding: response.body, as: UTF8.self)
        if text.hasPrefix("!") {
            throw SerializationError(code: .invalidBody, message: "\(id) refuses bodies starting with '!'.", offset: 0)
        }
        return "\(id):\(text)"
    }
}

/// Factory for `TaggingSerializer` with an option schema, for registry and option tests.
struct TaggingFactory: SerializerFactory {
    struct Options: Sendable, Equatable {
        var prefix: String = ""
        var maxDepth: Int = 8
    }

    var id: SerializerID
    var ranges: [String]
    var format: MediaFormat {
        MediaFormat(
            id: id, mediaRanges: ranges.map { MediaRange($0)! }, summary: "Tags bodies with the serializer id (tests).")
    }
    var optionSchema: [SerializerOption] {
        [
            SerializerOption("prefix", .string(allowed: nil), default: "", summary: "Text put before the tag."),
            SerializerOption("maxDepth", .integer(1...64), default: 8, summary: "Pretend depth limit."),
        ]
    }
    var defaultOptions: Options { Options() }

    init(_ id: SerializerID, _ ranges: String...) {
        self.id = id
        self.ranges = ranges
    }

    func options(from configuration: ConfigurationOptions) throws -> Options {
        var options = Options()
        if case .string(let prefix)? = configuration["prefix"] { options.prefix = prefix }
        if case .integer(let depth)? = configuration["maxDepth"] { options.maxDepth = depth }
        return options
    }

    func makeSerializer(options: Options) -> AnyResponseSerializer<String> {
        let tagging = TaggingSerializer(id: id, ranges: mediaRanges)
        return tagging.map { options.prefix + $0 }
    }
}

extension TaggingSerializer {
    init(id: SerializerID, ranges: [MediaRange]) {
        self.id = id
        self.ranges = ranges
    }
}

extension Response {
    /// A response with a `Content-Type` (when given) and a UTF-8 body.
    static func make(
        _ status: Int = 200, type: String? = nil, body: String = "", method: String? = nil,
        headers extra: [(String, String)] = []
    ) -> Response {
        var headers = HTTPHeaderFields()
        if let type { headers.append(name: "Content-Type", value: type) }
        for (name, value) in extra { headers.append(name: name, value: value) }
        return Response(status: status, headers: headers, body: Data(body.utf8), requestMethod: method)
    }
}

public import DecantCore
import Foundation

// Test serializers that the core and configuration tests share.

/// Returns `"<id>:<body as UTF-8>"`, so tests see which serializer ran; fails when the body starts with `!`.
public struct TaggingSerializer: ResponseSerializer {
    /// The id it tags bodies with.
    public var id: SerializerID
    /// The media ranges it claims.
    public var ranges: [MediaRange]
    /// ``ranges``.
    public var mediaRanges: [MediaRange] { ranges }

    /// A serializer with the id and the ranges (media range strings).
    public init(_ id: SerializerID, _ ranges: String...) {
        self.id = id
        self.ranges = ranges.map { MediaRange($0)! }
    }

    /// `"<id>:<body>"`, or `invalidBody` when the body starts with `!`.
    public func serialize(_ response: Response) throws -> String {
        let text = String(decoding: response.body, as: UTF8.self)
        if text.hasPrefix("!") {
            throw SerializationError(code: .invalidBody, message: "\(id) refuses bodies starting with '!'.", offset: 0)
        }
        return "\(id):\(text)"
    }
}

/// Factory for ``TaggingSerializer`` with an option schema, for registry and option tests.
public struct TaggingFactory: SerializerFactory {
    /// The factory's options.
    public struct Options: Sendable, Equatable {
        /// Text put before the tag.
        public var prefix: String = ""
        /// A pretend depth limit.
        public var maxDepth: Int = 8

        /// Options with the given values.
        public init(prefix: String = "", maxDepth: Int = 8) {
            self.prefix = prefix
            self.maxDepth = maxDepth
        }
    }

    /// The id of the serializers it makes.
    public var id: SerializerID
    /// Their media ranges, as strings.
    public var ranges: [String]
    /// The format: the id and the ranges.
    public var format: MediaFormat {
        MediaFormat(
            id: id, mediaRanges: ranges.map { MediaRange($0)! }, summary: "Tags bodies with the serializer id (tests).")
    }
    /// `prefix` and `maxDepth`.
    public var optionSchema: [SerializerOption] {
        [
            SerializerOption("prefix", .string(allowed: nil), default: "", summary: "Text put before the tag."),
            SerializerOption("maxDepth", .integer(1...64), default: 8, summary: "Pretend depth limit."),
        ]
    }
    /// The default ``Options``.
    public var defaultOptions: Options { Options() }

    /// A factory with the id and the ranges.
    public init(_ id: SerializerID, _ ranges: String...) {
        self.id = id
        self.ranges = ranges
    }

    /// The options a configuration sets.
    public func options(from configuration: ConfigurationOptions) throws -> Options {
        var options = Options()
        if case .string(let prefix)? = configuration["prefix"] { options.prefix = prefix }
        if case .integer(let depth)? = configuration["maxDepth"] { options.maxDepth = depth }
        return options
    }

    /// A ``TaggingSerializer`` whose values start with `options.prefix`.
    public func makeSerializer(options: Options) -> AnyResponseSerializer<String> {
        let tagging = TaggingSerializer(id: id, ranges: mediaRanges)
        return tagging.map { options.prefix + $0 }
    }
}

extension TaggingSerializer {
    /// A serializer with the id and the ranges.
    public init(id: SerializerID, ranges: [MediaRange]) {
        self.id = id
        self.ranges = ranges
    }
}

extension Response {
    /// A response with a `Content-Type` (when given) and a UTF-8 body.
    public static func make(
        _ status: Int = 200, type: String? = nil, body: String = "", method: String? = nil,
        headers extra: [(String, String)] = []
    ) -> Response {
        var headers = HTTPHeaderFields()
        if let type { headers.append(name: "Content-Type", value: type) }
        for (name, value) in extra { headers.append(name: name, value: value) }
        return Response(status: status, headers: headers, body: Data(body.utf8), requestMethod: method)
    }
}

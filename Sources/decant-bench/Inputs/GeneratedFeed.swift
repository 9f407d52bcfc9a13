import Foundation

/// An Atom feed of about 3 MB: namespaces (Atom, Media RSS, Dublin Core), attributes, predefined, character and
/// internal entity references, CDATA sections, comments, generated with a fixed seed.
enum GeneratedFeed {
    /// The feed's UTF-8 bytes.
    static let data: Data = {
        var generator = SeededGenerator(seed: 11)
        let words = [
            "response", "body", "media", "type", "parser", "swift", "linux", "benchmark", "stream", "value", "café",
            "naïve", "Zürich", "東京", "data", "header", "charset", "entity", "namespace", "attribute",
        ]
        func sentence(_ count: Int) -> String {
            (0..<count).map { _ in generator.pick(words) }.joined(separator: " ")
        }
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE feed [
              <!ENTITY site "Example News">
              <!ENTITY rights "Copyright &#169; 2024 Example News">
            ]>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/" \
            xmlns:dc="http://purl.org/dc/elements/1.1/" xml:lang="en">
              <title type="text">&site; &amp; friends</title>
              <id>urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6</id>
              <updated>2024-03-18T09:41:27Z</updated>
              <rights>&rights;</rights>

            """
        var index = 0
        while xml.utf8.count < 3_000_000 {
            index += 1
            xml += """
                  <entry>
                    <!-- entry \(index) -->
                    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-\(String(100_000_000_000 + index))</id>
                    <title type="text">\(sentence(6)) &amp; \(sentence(2)) &lt;\(index)&gt;</title>
                    <link rel="alternate" type="text/html" href="https://example.com/articles/\(index)?ref=feed&amp;x=1"/>
                    <link rel="enclosure" type="image/jpeg" length="\(generator.int(in: 1000...900_000))" \
                href="https://cdn.example.com/\(index).jpg"/>
                    <updated>2024-03-\(10 + index % 18)T\(10 + index % 12):00:00Z</updated>
                    <author><name>\(sentence(2))</name><email>author\(index % 97)@example.com</email></author>
                    <dc:subject>\(generator.pick(words))</dc:subject>
                    <media:thumbnail url="https://cdn.example.com/t/\(index).jpg" width="120" height="90"/>
                    <summary type="html"><![CDATA[<p>\(sentence(12)) <b>\(sentence(2))</b> & more</p>]]></summary>
                    <content type="text">\(sentence(40)) &#8212; &site; &#x2026; \(sentence(20))</content>
                  </entry>

                """
        }
        xml += "</feed>\n"
        return Data(xml.utf8)
    }()
}

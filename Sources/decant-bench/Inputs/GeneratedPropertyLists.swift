import Foundation

/// A few hundred KB of realistic property lists: an app's cached catalogue of 1,500 products (strings, integers,
/// reals, booleans, dates, data, nested arrays and dictionaries; no sets, which Foundation cannot read on Linux),
/// written by `PropertyListSerialization` in binary and XML form.
enum GeneratedPropertyLists {
    /// Builds the catalogue as Foundation objects.
    static func makeObject() -> [String: Any] {
        var generator = SeededGenerator(seed: 7)
        let colours = ["red", "green", "blue", "black", "white", "natural", "graphite"]
        let categories = ["apparel", "kitchen", "garden", "books", "toys", "office", "sports"]
        var products: [[String: Any]] = []
        for index in 0..<1500 {
            let thumbnail = Data((0..<24).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
            let variants: [[String: Any]] = (0..<generator.int(in: 1...3)).map { variant in
                [
                    "sku": "SKU-\(index)-\(variant)", "colour": generator.pick(colours),
                    "stock": generator.int(in: 0...500), "price": Double(generator.int(in: 199...19999)) / 100,
                ]
            }
            products.append([
                "id": 100_000 + index,
                "title": "Product \(index): \(generator.pick(colours)) \(generator.pick(categories)) item",
                "category": generator.pick(categories),
                "rating": Double(generator.int(in: 10...50)) / 10,
                "available": generator.next() % 4 != 0,
                "added": Date(timeIntervalSinceReferenceDate: Double(generator.int(in: 600_000_000...760_000_000))),
                "thumbnail": thumbnail,
                "tags": (0..<generator.int(in: 0...4)).map { _ in generator.pick(categories) },
                "variants": variants,
            ])
        }
        return ["version": 3, "generated": Date(timeIntervalSinceReferenceDate: 760_000_000), "products": products]
    }

    /// The catalogue as a binary property list.
    static var binary: Data {
        get throws { try PropertyListSerialization.data(fromPropertyList: makeObject(), format: .binary, options: 0) }
    }

    /// The catalogue as an XML property list.
    static var xml: Data {
        get throws { try PropertyListSerialization.data(fromPropertyList: makeObject(), format: .xml, options: 0) }
    }
}

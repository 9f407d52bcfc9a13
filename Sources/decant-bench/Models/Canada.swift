// Models for nativejson-benchmark's canada.json (a GeoJSON outline of Canada: about 110,000 coordinate pairs).

/// A GeoJSON feature collection.
struct FeatureCollection: Decodable, Equatable {
    var type: String
    var features: [Feature]

    /// One feature.
    struct Feature: Decodable, Equatable {
        var type: String
        var properties: [String: String]
        var geometry: Geometry
    }

    /// A polygon: rings of [longitude, latitude] pairs.
    struct Geometry: Decodable, Equatable {
        var type: String
        var coordinates: [[[Double]]]
    }
}

// Models for nativejson-benchmark's citm_catalog.json (a concert hall's event catalogue). Name tables are keyed by
// numeric ids written as strings.

/// The whole catalogue.
struct CitmCatalog: Codable, Equatable {
    var areaNames: [String: String]
    var audienceSubCategoryNames: [String: String]
    var blockNames: [String: String]
    var events: [String: Event]
    var performances: [Performance]
    var seatCategoryNames: [String: String]
    var subTopicNames: [String: String]
    var subjectNames: [String: String]
    var topicNames: [String: String]
    var topicSubTopics: [String: [Int]]
    var venueNames: [String: String]

    /// An event.
    struct Event: Codable, Equatable {
        var description: String?
        var id: Int
        var logo: String?
        var name: String
        var subTopicIds: [Int]
        var subjectCode: String?
        var subtitle: String?
        var topicIds: [Int]
    }

    /// A performance of an event.
    struct Performance: Codable, Equatable {
        var eventId: Int
        var id: Int
        var logo: String?
        var name: String?
        var prices: [Price]
        var seatCategories: [SeatCategory]
        var seatMapImage: String?
        var start: Int
        var venueCode: String
    }

    /// A price for an audience and seat category.
    struct Price: Codable, Equatable {
        var amount: Int
        var audienceSubCategoryId: Int
        var seatCategoryId: Int
    }

    /// The areas of a seat category.
    struct SeatCategory: Codable, Equatable {
        var areas: [Area]
        var seatCategoryId: Int
    }

    /// An area and its blocks.
    struct Area: Codable, Equatable {
        var areaId: Int
        var blockIds: [Int]
    }
}

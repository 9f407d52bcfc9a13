import Foundation

// Codable models of the nativejson-benchmark documents (twitter.json, citm_catalog.json, canada.json), decoded by
// both `JSONValueDecoder` and Foundation's `JSONDecoder` and compared.

// MARK: - twitter.json

/// A search result page of the Twitter API (v1.1).
struct TwitterSearch: Codable, Equatable {
    var statuses: [Status]
    var searchMetadata: SearchMetadata

    enum CodingKeys: String, CodingKey {
        case statuses
        case searchMetadata = "search_metadata"
    }
}

struct SearchMetadata: Codable, Equatable {
    var completedIn: Double
    var maxID: Int64
    var maxIDString: String
    var nextResults: String
    var query: String
    var refreshURL: String
    var count: Int
    var sinceID: Int64
    var sinceIDString: String

    enum CodingKeys: String, CodingKey {
        case completedIn = "completed_in"
        case maxID = "max_id"
        case maxIDString = "max_id_str"
        case nextResults = "next_results"
        case query
        case refreshURL = "refresh_url"
        case count
        case sinceID = "since_id"
        case sinceIDString = "since_id_str"
    }
}

/// A reference-typed wrapper, for the recursive `retweeted_status`.
final class Indirect<Value: Codable & Equatable>: Codable, Equatable {
    let value: Value
    init(from decoder: any Decoder) throws { value = try Value(from: decoder) }
    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    static func == (lhs: Indirect, rhs: Indirect) -> Bool { lhs.value == rhs.value }
}

struct Status: Codable, Equatable {
    struct Metadata: Codable, Equatable {
        var resultType: String
        var isoLanguageCode: String

        enum CodingKeys: String, CodingKey {
            case resultType = "result_type"
            case isoLanguageCode = "iso_language_code"
        }
    }

    var metadata: Metadata
    var createdAt: String
    var id: Int64
    var idString: String
    var text: String
    var source: String
    var truncated: Bool
    var inReplyToStatusID: Int64?
    var inReplyToStatusIDString: String?
    var inReplyToUserID: Int64?
    var inReplyToUserIDString: String?
    var inReplyToScreenName: String?
    var user: TwitterUser
    var geo: [Double]?
    var coordinates: [Double]?
    var contributors: [Int64]?
    var retweetedStatus: Indirect<Status>?
    var retweetCount: Int
    var favoriteCount: Int
    var entities: Entities
    var favorited: Bool
    var retweeted: Bool
    var possiblySensitive: Bool?
    var lang: String

    enum CodingKeys: String, CodingKey {
        case metadata
        case createdAt = "created_at"
        case id
        case idString = "id_str"
        case text, source, truncated
        case inReplyToStatusID = "in_reply_to_status_id"
        case inReplyToStatusIDString = "in_reply_to_status_id_str"
        case inReplyToUserID = "in_reply_to_user_id"
        case inReplyToUserIDString = "in_reply_to_user_id_str"
        case inReplyToScreenName = "in_reply_to_screen_name"
        case user, geo, coordinates, contributors
        case retweetedStatus = "retweeted_status"
        case retweetCount = "retweet_count"
        case favoriteCount = "favorite_count"
        case entities, favorited, retweeted
        case possiblySensitive = "possibly_sensitive"
        case lang
    }
}

struct TwitterUser: Codable, Equatable {
    struct URLs: Codable, Equatable {
        var urls: [URLEntity]
    }

    struct UserEntities: Codable, Equatable {
        var url: URLs?
        var description: URLs
    }

    var id: Int64
    var idString: String
    var name: String
    var screenName: String
    var location: String
    var description: String
    var url: URL?
    var entities: UserEntities
    var protected: Bool
    var followersCount: Int
    var friendsCount: Int
    var listedCount: Int
    var createdAt: String
    var favouritesCount: Int
    var utcOffset: Int?
    var timeZone: String?
    var geoEnabled: Bool
    var verified: Bool
    var statusesCount: Int
    var lang: String
    var contributorsEnabled: Bool
    var isTranslator: Bool
    var isTranslationEnabled: Bool
    var profileBackgroundColor: String
    var profileBackgroundImageURL: String
    var profileBackgroundImageURLHTTPS: String
    var profileBackgroundTile: Bool
    var profileImageURL: String
    var profileImageURLHTTPS: URL
    var profileBannerURL: String?
    var profileLinkColor: String
    var profileSidebarBorderColor: String
    var profileSidebarFillColor: String
    var profileTextColor: String
    var profileUseBackgroundImage: Bool
    var defaultProfile: Bool
    var defaultProfileImage: Bool
    var following: Bool
    var followRequestSent: Bool
    var notifications: Bool

    enum CodingKeys: String, CodingKey {
        case id
        case idString = "id_str"
        case name
        case screenName = "screen_name"
        case location, description, url, entities, protected
        case followersCount = "followers_count"
        case friendsCount = "friends_count"
        case listedCount = "listed_count"
        case createdAt = "created_at"
        case favouritesCount = "favourites_count"
        case utcOffset = "utc_offset"
        case timeZone = "time_zone"
        case geoEnabled = "geo_enabled"
        case verified
        case statusesCount = "statuses_count"
        case lang
        case contributorsEnabled = "contributors_enabled"
        case isTranslator = "is_translator"
        case isTranslationEnabled = "is_translation_enabled"
        case profileBackgroundColor = "profile_background_color"
        case profileBackgroundImageURL = "profile_background_image_url"
        case profileBackgroundImageURLHTTPS = "profile_background_image_url_https"
        case profileBackgroundTile = "profile_background_tile"
        case profileImageURL = "profile_image_url"
        case profileImageURLHTTPS = "profile_image_url_https"
        case profileBannerURL = "profile_banner_url"
        case profileLinkColor = "profile_link_color"
        case profileSidebarBorderColor = "profile_sidebar_border_color"
        case profileSidebarFillColor = "profile_sidebar_fill_color"
        case profileTextColor = "profile_text_color"
        case profileUseBackgroundImage = "profile_use_background_image"
        case defaultProfile = "default_profile"
        case defaultProfileImage = "default_profile_image"
        case following
        case followRequestSent = "follow_request_sent"
        case notifications
    }
}

struct Entities: Codable, Equatable {
    var hashtags: [Hashtag]
    var symbols: [Hashtag]
    var urls: [URLEntity]
    var userMentions: [UserMention]
    var media: [Media]?

    enum CodingKeys: String, CodingKey {
        case hashtags, symbols, urls
        case userMentions = "user_mentions"
        case media
    }
}

struct Hashtag: Codable, Equatable {
    var text: String
    var indices: [Int]
}

struct URLEntity: Codable, Equatable {
    var url: String
    var expandedURL: String
    var displayURL: String
    var indices: [Int]

    enum CodingKeys: String, CodingKey {
        case url
        case expandedURL = "expanded_url"
        case displayURL = "display_url"
        case indices
    }
}

struct UserMention: Codable, Equatable {
    var screenName: String
    var name: String
    var id: Int64
    var idString: String
    var indices: [Int]

    enum CodingKeys: String, CodingKey {
        case screenName = "screen_name"
        case name, id
        case idString = "id_str"
        case indices
    }
}

struct Media: Codable, Equatable {
    struct Size: Codable, Equatable {
        var w: Int
        var h: Int
        var resize: String
    }

    var id: Int64
    var idString: String
    var indices: [Int]
    var mediaURL: String
    var mediaURLHTTPS: String
    var url: String
    var displayURL: String
    var expandedURL: String
    var type: String
    var sizes: [String: Size]
    var sourceStatusID: Int64?
    var sourceStatusIDString: String?

    enum CodingKeys: String, CodingKey {
        case id
        case idString = "id_str"
        case indices
        case mediaURL = "media_url"
        case mediaURLHTTPS = "media_url_https"
        case url
        case displayURL = "display_url"
        case expandedURL = "expanded_url"
        case type, sizes
        case sourceStatusID = "source_status_id"
        case sourceStatusIDString = "source_status_id_str"
    }
}

/// The user subset of twitter.json with snake-case keys left to `.convertFromSnakeCase` (no `CodingKeys`).
struct SnakeCaseSearch: Codable, Equatable {
    struct Status: Codable, Equatable {
        var createdAt: String
        var idStr: String
        var inReplyToStatusId: Int64?
        var inReplyToScreenName: String?
        var user: User
        var retweetCount: Int
        var possiblySensitive: Bool?
    }

    struct User: Codable, Equatable {
        var screenName: String
        var followersCount: Int
        var utcOffset: Int?
        var profileImageUrlHttps: String
        var profileBannerUrl: String?
        var isTranslationEnabled: Bool
    }

    var statuses: [Status]
    var searchMetadata: [String: LooseValue]
}

/// Any JSON scalar, for dictionaries of mixed values.
enum LooseValue: Codable, Equatable {
    case number(Double)
    case string(String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        }
    }
}

// MARK: - citm_catalog.json

struct Catalog: Codable, Equatable {
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

    struct Performance: Codable, Equatable {
        var eventId: Int
        var id: Int
        var logo: String?
        var name: String?
        var prices: [Price]
        var seatCategories: [SeatCategory]
        var seatMapImage: String?
        var start: Int64
        var venueCode: String
    }

    struct Price: Codable, Equatable {
        var amount: Int
        var audienceSubCategoryId: Int
        var seatCategoryId: Int
    }

    struct SeatCategory: Codable, Equatable {
        var areas: [Area]
        var seatCategoryId: Int
    }

    struct Area: Codable, Equatable {
        var areaId: Int
        var blockIds: [Int]
    }

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
}

// MARK: - canada.json

struct FeatureCollection: Codable, Equatable {
    struct Feature: Codable, Equatable {
        var type: String
        var properties: [String: String]
        var geometry: Geometry
    }

    struct Geometry: Codable, Equatable {
        var type: String
        var coordinates: [[[Double]]]
    }

    var type: String
    var features: [Feature]
}

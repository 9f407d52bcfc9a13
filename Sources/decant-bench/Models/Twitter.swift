// Models for nativejson-benchmark's twitter.json (a Twitter search API response). Property names are the JSON
// keys, so both decoders (and both encoders, for json.encode.twitter) run with their default key strategy.

/// The whole response.
struct TwitterSearch: Codable, Equatable {
    var statuses: [TwitterStatus]
    var search_metadata: SearchMetadata

    /// Paging information.
    struct SearchMetadata: Codable, Equatable {
        var completed_in: Double
        var max_id: Int
        var max_id_str: String
        var next_results: String
        var query: String
        var refresh_url: String
        var count: Int
        var since_id: Int
        var since_id_str: String
    }
}

/// One tweet.
struct TwitterStatus: Codable, Equatable {
    var metadata: Metadata
    var created_at: String
    var id: Int
    var id_str: String
    var text: String
    var source: String
    var truncated: Bool
    var in_reply_to_status_id: Int?
    var in_reply_to_status_id_str: String?
    var in_reply_to_user_id: Int?
    var in_reply_to_user_id_str: String?
    var in_reply_to_screen_name: String?
    var user: TwitterUser
    var geo: String?
    var coordinates: String?
    var place: String?
    var contributors: String?
    var retweeted_status: Retweeted?
    var retweet_count: Int
    var favorite_count: Int
    var entities: Entities
    var favorited: Bool
    var retweeted: Bool
    var possibly_sensitive: Bool?
    var lang: String

    /// Search metadata of a tweet.
    struct Metadata: Codable, Equatable {
        var result_type: String
        var iso_language_code: String
    }

    /// The retweeted tweet, boxed because a struct cannot contain itself.
    final class Retweeted: Codable, Equatable {
        let status: TwitterStatus

        init(from decoder: any Decoder) throws {
            status = try TwitterStatus(from: decoder)
        }

        func encode(to encoder: any Encoder) throws {
            try status.encode(to: encoder)
        }

        static func == (lhs: Retweeted, rhs: Retweeted) -> Bool { lhs.status == rhs.status }
    }
}

/// A tweet's author.
struct TwitterUser: Codable, Equatable {
    var id: Int
    var id_str: String
    var name: String
    var screen_name: String
    var location: String
    var description: String
    var url: String?
    var entities: UserEntities
    var protected: Bool
    var followers_count: Int
    var friends_count: Int
    var listed_count: Int
    var created_at: String
    var favourites_count: Int
    var utc_offset: Int?
    var time_zone: String?
    var geo_enabled: Bool
    var verified: Bool
    var statuses_count: Int
    var lang: String
    var contributors_enabled: Bool
    var is_translator: Bool
    var is_translation_enabled: Bool
    var profile_background_color: String
    var profile_background_image_url: String
    var profile_background_image_url_https: String
    var profile_background_tile: Bool
    var profile_image_url: String
    var profile_image_url_https: String
    var profile_banner_url: String?
    var profile_link_color: String
    var profile_sidebar_border_color: String
    var profile_sidebar_fill_color: String
    var profile_text_color: String
    var profile_use_background_image: Bool
    var default_profile: Bool
    var default_profile_image: Bool
    var following: Bool
    var follow_request_sent: Bool
    var notifications: Bool

    /// Links in the profile.
    struct UserEntities: Codable, Equatable {
        var url: URLs?
        var description: URLs
    }

    /// A list of links.
    struct URLs: Codable, Equatable {
        var urls: [Entities.Link]
    }
}

/// Hashtags, links, mentions and media in a tweet.
struct Entities: Codable, Equatable {
    var hashtags: [Hashtag]
    var symbols: [Hashtag]
    var urls: [Link]
    var user_mentions: [Mention]
    var media: [Media]?

    /// A hashtag (or a cashtag, in `symbols`).
    struct Hashtag: Codable, Equatable {
        var text: String
        var indices: [Int]
    }

    /// A shortened link.
    struct Link: Codable, Equatable {
        var url: String
        var expanded_url: String
        var display_url: String
        var indices: [Int]
    }

    /// A mentioned user.
    struct Mention: Codable, Equatable {
        var screen_name: String
        var name: String
        var id: Int
        var id_str: String
        var indices: [Int]
    }

    /// An attached photo.
    struct Media: Codable, Equatable {
        var id: Int
        var id_str: String
        var indices: [Int]
        var media_url: String
        var media_url_https: String
        var url: String
        var display_url: String
        var expanded_url: String
        var type: String
        var sizes: [String: Size]
        var source_status_id: Int?
        var source_status_id_str: String?
    }

    /// One rendition's size.
    struct Size: Codable, Equatable {
        var w: Int
        var h: Int
        var resize: String
    }
}

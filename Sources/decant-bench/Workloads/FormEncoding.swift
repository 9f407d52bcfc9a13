import Decant
import DecantForm
import Foundation

/// Writing `application/x-www-form-urlencoded` bodies with the form plugin, against the Foundation code a user would
/// write for the same pairs: `URLComponents.queryItems` and `percentEncodedQuery`. Foundation writes a URL query, not
/// quite a form (a space as `%20`, `+` and some other characters left as they are), so its output differs; both
/// sides are checked to encode every pair in a way their own reader takes back.
enum FormEncodingWorkloads {
    /// `plugin.form.encode*`.
    static var all: [Workload] {
        [
            Workload(
                name: "plugin.form.encode", unit: .megabytesPerSecond,
                baselineName: "URLComponents.percentEncodedQuery",
                summary: "FormData of 1,000 pairs (words, spaces, reserved and non-ASCII characters) to a form body"
            ) { _ in
                let form = FormData(generatedPairs)
                let items = generatedPairs.map { URLQueryItem(name: $0.0, value: $0.1) }
                let writer = FormWriter()
                let decant = Contender(name: "Decant FormWriter") { writer.write(form).count }
                let baseline = Contender(name: "URLComponents.percentEncodedQuery") {
                    var components = URLComponents()
                    components.queryItems = items
                    return components.percentEncodedQuery?.utf8.count ?? 0
                }
                let body = writer.write(form)
                return .timed(
                    TimedBench(
                        quantity: Double(body.count), decant: decant, baseline: .inProcess(baseline),
                        note: try check(body, form: form, items: items)))
            },
            Workload(
                name: "plugin.form.encode.struct", unit: .microsecondsPerOperation,
                baselineName: "URLQueryItems by hand + percentEncodedQuery",
                summary: "a 20-field Encodable struct to a form body (FormEncoder) against query items built by hand"
            ) { settings in
                let profile = Profile.sample
                let encoder = FormEncoder()
                let decant = Contender(name: "Decant FormEncoder") { try encoder.encode(profile).count }
                let baseline = Contender(name: "URLQueryItems by hand + percentEncodedQuery") {
                    var components = URLComponents()
                    components.queryItems = profile.queryItems
                    return components.percentEncodedQuery?.utf8.count ?? 0
                }
                let body = try encoder.encode(profile)
                let form = try FormParser().parse(body)
                let fields = form.pairs.map { [$0.name, $0.value] }
                let items = profile.queryItems.map { [$0.name, $0.value ?? ""] }
                return .timed(
                    TimedBench(
                        quantity: 1, callsPerSample: settings.smallObjectCalls, decant: decant,
                        baseline: .inProcess(baseline),
                        note: fields == items ? nil : "plugin.form.encode.struct: the two sides wrote different fields")
                )
            },
        ]
    }

    /// `nil` when both bodies give their pairs back through their own readers, else what went wrong.
    static func check(_ body: Data, form: FormData, items: [URLQueryItem]) throws -> String? {
        let decoded = try FormParser().parse(body)
        var components = URLComponents()
        components.queryItems = items
        var readBack = URLComponents()
        readBack.percentEncodedQuery = components.percentEncodedQuery
        if decoded != form { return "plugin.form.encode: Decant's body does not parse back to its pairs" }
        if readBack.queryItems != items { return "plugin.form.encode: Foundation's query does not read back" }
        return nil
    }

    /// 1,000 seeded pairs: ASCII names with `_` and `[]`, values of words with spaces, `&`, `=`, `+`, `%`, `/` and
    /// some accented and CJK characters; about 40 KB of form body.
    static let generatedPairs: [(String, String)] = {
        var generator = SeededGenerator(seed: 38)
        let words = [
            "alpha", "beta", "gamma", "delta", "user", "token", "redirect", "state", "scope", "value", "name", "city",
        ]
        let extras = [" ", " & ", "=", "+", "%", "/", "?", "café", "Zürich", "東京", "-", ".", "_", "~"]
        return (0..<1000).map { index in
            let name = "\(words[index % words.count])_\(index)" + (index % 7 == 0 ? "[]" : "")
            var value = ""
            for _ in 0..<Int.random(in: 2...6, using: &generator) {
                value += words.randomElement(using: &generator)!
                value += extras.randomElement(using: &generator)!
            }
            return (name, value)
        }
    }()
}

/// A sign-up form: 20 fields of the types forms carry.
private struct Profile: Encodable {
    var firstName: String
    var lastName: String
    var email: String
    var password: String
    var age: Int
    var height: Double
    var newsletter: Bool
    var terms: Bool
    var country: String
    var city: String
    var postalCode: String
    var street: String
    var phone: String
    var company: String?
    var website: String
    var referrer: String
    var language: String
    var timezone: String
    var interests: [String]
    var note: String

    static let sample = Profile(
        firstName: "Ada", lastName: "Lovelace", email: "ada+forms@example.com", password: "p@ss w0rd&=%",
        age: 36, height: 1.65, newsletter: true, terms: true, country: "United Kingdom", city: "London",
        postalCode: "W1 2AB", street: "12 St James's Square", phone: "+44 20 7946 0000", company: nil,
        website: "https://example.com/ada?ref=a&b=c", referrer: "search", language: "en-GB",
        timezone: "Europe/London", interests: ["mathematics", "engines", "poetry"],
        note: "Analytical Engine — notes G & H, café")

    /// The query items a user would build by hand, in the encoder's order and spelling.
    var queryItems: [URLQueryItem] {
        var items = [
            URLQueryItem(name: "firstName", value: firstName), URLQueryItem(name: "lastName", value: lastName),
            URLQueryItem(name: "email", value: email), URLQueryItem(name: "password", value: password),
            URLQueryItem(name: "age", value: String(age)), URLQueryItem(name: "height", value: String(height)),
            URLQueryItem(name: "newsletter", value: String(newsletter)),
            URLQueryItem(name: "terms", value: String(terms)), URLQueryItem(name: "country", value: country),
            URLQueryItem(name: "city", value: city), URLQueryItem(name: "postalCode", value: postalCode),
            URLQueryItem(name: "street", value: street), URLQueryItem(name: "phone", value: phone),
        ]
        if let company { items.append(URLQueryItem(name: "company", value: company)) }
        items += [
            URLQueryItem(name: "website", value: website), URLQueryItem(name: "referrer", value: referrer),
            URLQueryItem(name: "language", value: language), URLQueryItem(name: "timezone", value: timezone),
        ]
        items += interests.map { URLQueryItem(name: "interests", value: $0) }
        items.append(URLQueryItem(name: "note", value: note))
        return items
    }
}

import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension PropertyListValue {
    /// The value in the typed canonical JSON form of the conformance corpora (what Python's `plistlib` reads,
    /// written as tagged JSON), as compact JSON text.
    ///
    /// Every value is a one-member object naming its kind: `{"dict": {...}}` (keys in document order),
    /// `{"array": [...]}`, `{"string": "..."}`, `{"integer": "42"}` (decimal text, any size), `{"real": "0.5"}`
    /// (the shortest text that reads back as the same `Double`, as Python's `repr`), `{"bool": true}`,
    /// `{"date": "2004-10-26T10:33:33Z"}` (UTC, fractional seconds only when present),
    /// `{"data_base64": "..."}` and `{"uid": 7}`.
    public func canonicalJSONText() -> String {
        var output = ""
        // Iterative, so that deep values cannot exhaust the stack.
        enum Step {
            case value(PropertyListValue)
            case text(String)
        }
        var steps: [Step] = [.value(self)]
        while let step = steps.popLast() {
            switch step {
            case .text(let text):
                output += text
            case .value(let value):
                switch value {
                case .dictionary(let dictionary):
                    output += "{\"dict\":{"
                    steps.append(.text("}}"))
                    for index in dictionary.indices.reversed() {
                        steps.append(.value(dictionary.values[index]))
                        var key = PropertyListValue.quoted(dictionary.keys[index]) + ":"
                        if index > 0 { key = "," + key }
                        steps.append(.text(key))
                    }
                case .array(let array):
                    output += "{\"array\":["
                    steps.append(.text("]}"))
                    for index in array.indices.reversed() {
                        steps.append(.value(array[index]))
                        if index > 0 { steps.append(.text(",")) }
                    }
                case .string(let string): output += "{\"string\":" + PropertyListValue.quoted(string) + "}"
                case .integer(let integer): output += "{\"integer\":\"\(integer)\"}"
                case .real(let real): output += "{\"real\":\"\(PropertyListValue.realText(real))\"}"
                case .bool(let bool): output += "{\"bool\":\(bool)}"
                case .date(let date): output += "{\"date\":\"\(PropertyListDates.iso8601(date))\"}"
                case .data(let data): output += "{\"data_base64\":\"\(data.base64EncodedString())\"}"
                case .uid(let uid): output += "{\"uid\":\(uid)}"
                }
            }
        }
        return output
    }

    /// Python's `repr` of a float: `0.5`, `1e+16`, `inf`, `nan`.
    static func realText(_ value: Double) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        return "\(value)"
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> String { JSONStringEscaping.literal(text) }
}

/// Date arithmetic without a calendar: property list dates are UTC, proleptic Gregorian.
enum PropertyListDates {
    /// Seconds from 1970-01-01 to 2001-01-01, the binary property list epoch.
    static let referenceOffset: Double = 978_307_200

    /// The number of days from 1970-01-01 to the given civil date.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a day count from 1970-01-01.
    static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPart = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthPart + 2) / 5 + 1
        let month = monthPart < 10 ? monthPart + 3 : monthPart - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Whether `seconds` since 1970 lies in the years 1 to 9999 (what ISO 8601 text and Python can represent).
    ///
    /// The one range check of every property list date: binary dates are checked here directly, XML dates through
    /// ``secondsSince1970(year:month:day:hour:minute:second:)``.
    static func isRepresentable(_ secondsSince1970: Double) -> Bool {
        secondsSince1970.isFinite && secondsSince1970 >= -62_135_596_800 && secondsSince1970 < 253_402_300_800
    }

    /// Whether `year` is a leap year of the proleptic Gregorian calendar.
    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The seconds since 1970 of a UTC civil date and time, or `nil` when it is not a real instant: the month must
    /// be 1 to 12, the day exist in that month (proleptic Gregorian leap years), the hour be 0 to 23, the minute and
    /// second 0 to 59 (no leap second, as Python's `datetime` and `plistlib`), and the result lie in the years
    /// ``isRepresentable(_:)`` accepts, the same range as binary property list dates.
    static func secondsSince1970(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Double? {
        guard (1...12).contains(month), hour >= 0, hour < 24, minute >= 0, minute < 60, second >= 0, second < 60 else {
            return nil
        }
        let monthDays =
            month == 2
            ? (isLeapYear(year) ? 29 : 28) : (month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31)
        guard day >= 1, day <= monthDays else { return nil }
        let seconds = Double(days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second)
        return isRepresentable(seconds) ? seconds : nil
    }

    /// `date` as `YYYY-MM-DDTHH:MM:SS[.ffffff]Z`.
    static func iso8601(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        guard isRepresentable(seconds) else { return "\(seconds)" }
        let microseconds = (seconds * 1_000_000).rounded()
        let whole = Int((microseconds / 1_000_000).rounded(.down))
        let fraction = Int(microseconds - Double(whole) * 1_000_000)
        let (dayCount, secondOfDay) = whole.quotientAndRemainder(dividingBy: 86_400)
        let days = secondOfDay < 0 ? dayCount - 1 : dayCount
        let second = secondOfDay < 0 ? secondOfDay + 86_400 : secondOfDay
        let (year, month, day) = civil(days: days)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T"
        text += "\(pad(second / 3600, 2)):\(pad(second / 60 % 60, 2)):\(pad(second % 60, 2))"
        if fraction > 0 {
            var digits = pad(fraction, 6)
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return text + "Z"
    }
}

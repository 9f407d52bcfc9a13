#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Number and date text as XML property lists write them.
enum PropertyListNumbers {
    /// `bytes` without leading and trailing XML whitespace.
    static func trimmingXMLSpace(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// A decimal integer (optional sign) or a `0x` hexadecimal one, within 128 signed bits.
    static func integer(_ text: String) -> PropertyListInteger? {
        Array(text.utf8).withUnsafeBufferPointer { integer($0) }
    }

    /// A decimal integer (optional sign) or a `0x` hexadecimal one, within 128 signed bits, from UTF-8 bytes.
    static func integer(_ text: UnsafeBufferPointer<UInt8>) -> PropertyListInteger? {
        var index = 0
        var negative = false
        if let first = text.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            index = 1
        }
        var radix: UInt64 = 10
        if text.count - index >= 2, text[index] == UInt8(ascii: "0"),
            text[index + 1] == UInt8(ascii: "x") || text[index + 1] == UInt8(ascii: "X")
        {
            radix = 16
            index += 2
        }
        guard index < text.count else { return nil }
        if radix == 10, text.count - index <= 18 {
            // At most 18 digits: fits an Int64 without overflow checks.
            var value: Int64 = 0
            while index < text.count {
                let digit = text[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int64(digit)
                index += 1
            }
            return PropertyListInteger(negative ? -value : value)
        }
        var high: UInt64 = 0
        var low: UInt64 = 0
        while index < text.count {
            let byte = text[index]
            index += 1
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: digit = UInt64(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            let (lowCarry, lowProduct) = low.multipliedFullWidth(by: radix)
            let (highProduct, highOverflow) = high.multipliedReportingOverflow(by: radix)
            guard !highOverflow else { return nil }
            let (newHigh, carryOverflow) = highProduct.addingReportingOverflow(lowCarry)
            guard !carryOverflow else { return nil }
            let (newLow, addCarry) = lowProduct.addingReportingOverflow(digit)
            let (finalHigh, finalOverflow) = newHigh.addingReportingOverflow(addCarry ? 1 : 0)
            guard !finalOverflow else { return nil }
            high = finalHigh
            low = newLow
        }
        return PropertyListInteger.fromMagnitude(high: high, low: low, negative: negative)
    }

    /// A decimal real, `inf`, `-inf` or `nan`.
    static func real(_ text: String) -> Double? {
        guard !text.isEmpty, !text.lowercased().hasPrefix("0x"), !text.lowercased().hasPrefix("-0x") else { return nil }
        return Double(text)
    }

    /// A decimal real, `inf`, `-inf` or `nan`, from UTF-8 bytes.
    ///
    /// `-ddd.ddd[e±dd]` with at most 15 significant digits and a small exponent is converted exactly here (one
    /// correctly rounded multiplication or division of exact operands); other text goes to `Double(_:)`.
    static func real(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        if let value = simpleReal(text) { return value }
        return real(String(decoding: text, as: UTF8.self))
    }

    private static func simpleReal(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        let integerStart = index
        while index < text.count, text[index] &- UInt8(ascii: "0") < 10 {
            mantissa = mantissa &* 10 &+ UInt64(text[index] &- UInt8(ascii: "0"))
            if mantissa != 0 { significant += 1 }
            index += 1
        }
        guard index > integerStart else { return nil }
        if index < text.count, text[index] == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            while index < text.count, text[index] &- UInt8(ascii: "0") < 10 {
                mantissa = mantissa &* 10 &+ UInt64(text[index] &- UInt8(ascii: "0"))
                if mantissa != 0 { significant += 1 }
                exponent -= 1
                index += 1
            }
            guard index > fractionStart else { return nil }
        }
        guard significant <= 15 else { return nil }
        if index < text.count, text[index] == UInt8(ascii: "e") || text[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
                exponentNegative = text[index] == UInt8(ascii: "-")
                index += 1
            }
            let digitsStart = index
            var written = 0
            while index < text.count, text[index] &- UInt8(ascii: "0") < 10, index - digitsStart < 4 {
                written = written * 10 + Int(text[index] &- UInt8(ascii: "0"))
                index += 1
            }
            guard index > digitsStart else { return nil }
            exponent += exponentNegative ? -written : written
        }
        guard index == text.count, exponent >= -22, exponent <= 22 else { return nil }
        var power = 1.0
        for _ in 0..<abs(exponent) { power *= 10 }
        let magnitude = exponent < 0 ? Double(mantissa) / power : Double(mantissa) * power
        return negative ? -magnitude : magnitude
    }

    /// `YYYY-MM-DD[THH[:MM[:SS]]]Z`, UTC: a real date and time in the years 1 to 9999 (see
    /// ``PropertyListDates/secondsSince1970(year:month:day:hour:minute:second:)``).
    static func date(_ text: String) -> Date? {
        Array(text.utf8).withUnsafeBufferPointer { date($0) }
    }

    /// `YYYY-MM-DD[THH[:MM[:SS]]]Z`, UTC, from UTF-8 bytes: a real date and time in the years 1 to 9999.
    static func date(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard bytes.last == UInt8(ascii: "Z") else { return nil }
        // Year, month, day, hour, minute, second; the fields not written keep these defaults.
        var fields: (Int, Int, Int, Int, Int, Int) = (0, 1, 1, 0, 0, 0)
        var fieldCount = 0
        var index = 0
        let end = bytes.count - 1
        while index < end, fieldCount < 6 {
            if fieldCount > 0 {
                let separator =
                    fieldCount < 3 ? UInt8(ascii: "-") : fieldCount == 3 ? UInt8(ascii: "T") : UInt8(ascii: ":")
                guard bytes[index] == separator else { return nil }
                index += 1
            }
            let width = fieldCount == 0 ? 4 : 2
            guard index + width <= end else { return nil }
            var value = 0
            for offset in index..<index + width {
                let digit = bytes[offset] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            switch fieldCount {
            case 0: fields.0 = value
            case 1: fields.1 = value
            case 2: fields.2 = value
            case 3: fields.3 = value
            case 4: fields.4 = value
            default: fields.5 = value
            }
            fieldCount += 1
            index += width
        }
        // The year, month and day are required, as `plistlib` requires them.
        guard index == end, fieldCount >= 3 else { return nil }
        let (year, month, day, hour, minute, second) = fields
        guard
            let seconds = PropertyListDates.secondsSince1970(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }
}

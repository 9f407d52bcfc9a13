import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantJSON

/// `doubleValue` against the standard library's correctly rounded `Double(String)`, an independent oracle.
@Suite struct JSONNumberTests {
    static func expected(_ text: String) -> Double? {
        let value = Double(text)!
        return value.isInfinite ? nil : value
    }

    @Test(arguments: [
        "0", "-0", "0.0", "1", "-1", "0.1", "0.2", "0.3", "1e23", "8.98846567431158e307", "1.7976931348623157e308",
        "1.7976931348623158e308", "1.7976931348623159e308", "2.2250738585072011e-308", "2.2250738585072014e-308",
        "4.9406564584124654e-324", "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400", "-1e-400",
        "9007199254740993", "9007199254740992.5", "9007199254740993.0000000001", "4503599627370496.5",
        "4503599627370497.5", "123456789012345678901234567890", "0.000000000000000000000000000000000001",
        "3.141592653589793238462643383279", "7.2057594037927933e16",
        "1.00000000000000011102230246251565404236316680908203125",
        "1.00000000000000011102230246251565404236316680908203124",
        "1.00000000000000011102230246251565404236316680908203126",
        "-65.613616999999977", "43.420273000000009", "1e308", "1e309", "10e307", "0.1e310",
        "1000000000000000000000e-21",
    ])
    func edgeCases(text: String) throws {
        let value = try JSONParser().parse(text)
        let expected = Self.expected(text)
        #expect(value.doubleValue?.bitPattern == expected?.bitPattern, "\(text)")
        #expect(JSONNumber(text)?.doubleValue?.bitPattern == expected?.bitPattern, "\(text)")
    }

    @Test func randomNumbersMatchTheStandardLibrary() throws {
        var generator = SplitMix64(state: 0x2021_1EE1)
        var failures = 0
        let count = 50_000
        for _ in 0..<count {
            var text = generator.next() % 4 == 0 ? "-" : ""
            let digitCount = 1 + Int(generator.next() % 24)
            var digits = (0..<digitCount).map { _ in Character(String(generator.next() % 10)) }
            if digits.count > 1 && digits[0] == "0" { digits[0] = "7" }
            let point = Int(generator.next() % UInt64(digitCount + 1))
            if point > 0 && point < digitCount && generator.next() % 2 == 0 {
                text += String(digits[..<point]) + "." + String(digits[point...])
            } else {
                text += String(digits)
            }
            if generator.next() % 3 != 0 {
                let exponent = Int(generator.next() % 700) - 360
                text += (generator.next() % 2 == 0 ? "e" : "E") + String(exponent)
            }
            guard let number = JSONNumber(text) else {
                Issue.record("generated an invalid number \(text)")
                continue
            }
            if number.doubleValue?.bitPattern != Self.expected(text)?.bitPattern {
                failures += 1
                if failures < 10 { Issue.record("\(text): \(String(describing: number.doubleValue))") }
            }
        }
        print("random doubles against Double(String): \(count - failures) passed, \(failures) failed")
    }

    @Test func halfwayValuesRoundToEven() throws {
        // m + 1/2 for 53-bit m: exactly halfway between two doubles; the even neighbour wins.
        var generator = SplitMix64(state: 53)
        for _ in 0..<2_000 {
            let m = (1 << 52) + generator.next() % (1 << 52)
            let text = String(m) + ".5"
            #expect(JSONNumber(text)?.doubleValue?.bitPattern == Double(text)?.bitPattern, "\(text)")
            let scaled = String(10 * m + 5) + "e-1"
            #expect(JSONNumber(scaled)?.doubleValue == Double(m) + (m % 2 == 0 ? 0 : 1), "\(scaled)")
        }
    }
}

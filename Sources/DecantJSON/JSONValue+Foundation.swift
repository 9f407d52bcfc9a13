#if canImport(Foundation)
    import Foundation

    extension JSONValue {
        /// The value as Foundation objects, for code written against `JSONSerialization` and AFNetworking.
        ///
        /// - `null` becomes `NSNull()`; `true` and `false` become `Bool`; a string becomes `String`.
        /// - An integer (no fraction or exponent) becomes `Int` within `Int`'s range, else `Decimal` (exact up to 38
        ///   digits), else `Double`.
        /// - A number with a fraction or exponent becomes `Double`, as `JSONSerialization` returns it (`Decimal` when
        ///   it is beyond `Double`'s range but within `Decimal`'s; infinity beyond both).
        /// - An array becomes `[Any]`; an object becomes `[String: Any]` (keys that differ only by Unicode
        ///   normalization collide in a Swift dictionary, and the later one wins).
        ///
        /// Builds without recursion, but Swift releases nested arrays and dictionaries recursively, so releasing the
        /// bridge of a document nested tens of thousands deep can exhaust a thread's stack (``JSONValue`` itself has
        /// no such limit). Prefer ``JSONValue`` (or `Decodable`) in new code: it keeps key order and exact numbers.
        public func foundationObject() -> Any {
            final class Container {
                let isObject: Bool
                var array: [Any] = []
                var object: [String: Any] = [:]
                var key: String?
                var next: Int
                let end: Int
                init(isObject: Bool, next: Int, end: Int) {
                    self.isObject = isObject
                    self.next = next
                    self.end = end
                }
                var value: Any { isObject ? object : array }
            }
            let storage = self.storage
            func scalar(_ index: Int) -> Any {
                let entry = storage.tape[index]
                switch Tape.kind(entry) {
                case Tape.nullKind: return NSNull()
                case Tape.falseKind: return false
                case Tape.trueKind: return true
                case Tape.integerKind:
                    let value = Tape.integerValue(entry)
                    return Int(exactly: value) ?? Decimal(value)
                case Tape.numberKind:
                    let value = JSONValue(storage: storage, index: index)
                    let number = value.numberValue!
                    if number.isInteger, let int = value.intValue { return int }
                    if number.isInteger, let decimal = number.decimalValue { return decimal }
                    if let double = number.doubleValue { return double }
                    return number.decimalValue ?? Double(number.text)!
                default:
                    return storage.string(at: index)
                }
            }
            var stack: [Container] = []
            func open(_ index: Int) -> Any? {
                let entry = storage.tape[index]
                guard Tape.kind(entry) >= Tape.arrayKind else { return scalar(index) }
                stack.append(
                    Container(
                        isObject: Tape.kind(entry) == Tape.objectKind, next: index + 1, end: index + Tape.size(entry)))
                return nil
            }
            if let value = open(index) { return value }
            var finished: Any = NSNull()
            while let top = stack.last {
                var produced: Any?
                if top.next >= top.end {
                    stack.removeLast()
                    produced = top.value
                    if stack.isEmpty {
                        finished = produced!
                        break
                    }
                } else if top.isObject {
                    top.key = storage.string(at: top.next)
                    let value = top.next + 1
                    top.next = storage.end(of: value)
                    produced = open(value)
                } else {
                    let value = top.next
                    top.next = storage.end(of: value)
                    produced = open(value)
                }
                if let produced, let parent = stack.last {
                    if parent.isObject {
                        parent.object[parent.key!] = produced
                    } else {
                        parent.array.append(produced)
                    }
                }
            }
            return finished
        }
    }
#endif

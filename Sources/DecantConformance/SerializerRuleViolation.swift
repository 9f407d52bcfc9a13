public import DecantCore

/// One broken rule of ``SerializerRules``: which serializer, which rule, and what happened.
public struct SerializerRuleViolation: Sendable, Hashable, CustomStringConvertible {
    /// A rule of ``SerializerRules``. A struct with static values rather than an enum, so that new rules do not
    /// break a client's `switch`.
    public struct Rule: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The rule's name, such as `validID`.
        public let rawValue: String
        /// Creates a rule from its name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The factory's and the serializer's ids are well-formed, and unique within the module.
        public static let validID = Rule(rawValue: "validID")
        /// The option schema's defaults pass its validation and build a serializer, as do no options and the typed
        /// default options.
        public static let defaultOptions = Rule(rawValue: "defaultOptions")
        /// Every call returns a value or throws a `SerializationError`, never another error.
        public static let failsCleanly = Rule(rawValue: "failsCleanly")
        /// Every call finishes within the deadline (a hang detector, not a speed test).
        public static let finishesInTime = Rule(rawValue: "finishesInTime")

        /// The rule's name.
        public var description: String { rawValue }
    }

    /// The id of the factory whose serializer broke the rule.
    public let serializerID: SerializerID
    /// The rule broken.
    public let rule: Rule
    /// What happened, as a sentence.
    public let message: String

    /// Creates a violation.
    public init(serializerID: SerializerID, rule: Rule, message: String) {
        self.serializerID = serializerID
        self.rule = rule
        self.message = message
    }

    /// `id [rule]: message`.
    public var description: String { "\(serializerID) [\(rule)]: \(message)" }
}

public import DecantCore
public import DecantJSON

extension ServerSentEvents: ConformanceInitializable {
    /// The events and final reconnection time of `{"events": [{"type", "data", "lastEventID"}, ...], "retry": N or
    /// null}`: what `decant encode --content-type text/event-stream` reads. An event's `type` may be left out
    /// (`message`), and so may its `lastEventID` (`""`) and the `retry` (none); the events' own reconnection times
    /// are not part of the form, so they are `nil`.
    ///
    /// - Throws: `SerializationError.Code.unsupportedValue` naming the expected form when `form` is not one.
    public init(conformanceValue form: JSONValue) throws(SerializationError) {
        let expected = #"{"events": [{"type": TYPE, "data": DATA, "lastEventID": ID}, ...], "retry": N or null}"#
        guard let members = form.objectEntries, members.allSatisfy({ ["events", "retry"].contains($0.key) }),
            let list = form["events"]?.arrayValue
        else { throw .canonicalForm(expected: expected, for: ServerSentEvents.self) }
        var retry: Int?
        if let value = form["retry"], value != nil {
            guard let milliseconds = value.intValue, milliseconds >= 0 else {
                throw .canonicalForm(expected: expected + ", retry a whole number of 0 or more", for: Self.self)
            }
            retry = milliseconds
        }
        var events: [ServerSentEvent] = []
        events.reserveCapacity(list.count)
        for item in list {
            guard let fields = item.objectEntries,
                fields.allSatisfy({ ["type", "data", "lastEventID"].contains($0.key) }),
                let data = item["data"]?.stringValue
            else { throw .canonicalForm(expected: expected + ", each event with string data", for: Self.self) }
            let type = item["type"].map(\.stringValue) ?? "message"
            let id = item["lastEventID"].map(\.stringValue) ?? ""
            guard let type, let id else {
                throw .canonicalForm(expected: expected + ", type and lastEventID strings", for: Self.self)
            }
            events.append(ServerSentEvent(type: type, data: data, lastEventID: id))
        }
        self.init(events: events, retry: retry)
    }
}

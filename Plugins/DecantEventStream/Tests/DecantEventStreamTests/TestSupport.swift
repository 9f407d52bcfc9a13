import Decant
import DecantConformance
import Foundation

/// Helpers of the event stream tests (a plugin's tests do without DecantTestSupport: they use only what a third party has).
enum EventStreamTestSupport {
    /// The shared corpora (`../shared/corpora`), when present.
    static let corpora = TestCorpora()
}

import DecantEventSource
import Testing

/// The reconnection delay rule, computed by hand from its statement.
@Suite struct ReconnectionDelayTests {
    private let configuration = EventSource.Configuration(
        defaultReconnectionTime: .seconds(3), maxReconnectionTime: .seconds(600), maxBackoff: .seconds(30),
        jitter: 0.5)

    /// `retry` in milliseconds: the default before one, clamped to the maximum, as it is otherwise.
    @Test(
        arguments: [
            (nil, Duration.seconds(3)), (0, .zero), (10, .milliseconds(10)), (2500, .milliseconds(2500)),
            (600_000, .seconds(600)), (600_001, .seconds(600)), (Int.max, .seconds(600)),
        ] as [(Int?, Duration)])
    func reconnectionTime(retry: Int?, expected: Duration) {
        #expect(configuration.reconnectionTime(retry: retry) == expected)
    }

    /// Without jitter: r, r, 2r, 4r, 8r, then the cap of 30 s (r = 3 s: 3, 3, 6, 12, 24, 30, 30).
    @Test(arguments: [(0, 3.0), (1, 3.0), (2, 6.0), (3, 12.0), (4, 24.0), (5, 30.0), (6, 30.0), (1000, 30.0)])
    func backoffDoublesUpToTheCap(failures: Int, seconds: Double) {
        let delay = configuration.delay(afterFailuresInARow: failures, reconnectionTime: .seconds(3), jitterSample: 0)
        #expect(delay == .seconds(seconds))
    }

    /// The jitter takes up to half off a backed-off wait, never below the reconnection time, and never changes the
    /// first wait.
    @Test(arguments: [
        (1, 0.99, 3.0), (2, 0.5, 4.5), (3, 0.5, 9.0), (3, 0.999, 6.006), (5, 0.5, 22.5), (2, 1.0, 3.0),
    ])
    func jitterShortensBackoffOnly(failures: Int, sample: Double, seconds: Double) {
        let delay = configuration.delay(
            afterFailuresInARow: failures, reconnectionTime: .seconds(3), jitterSample: sample)
        #expect(abs(Double(delay.components.seconds) + Double(delay.components.attoseconds) * 1e-18 - seconds) < 1e-9)
    }

    /// A reconnection time over the backoff cap is waited as it is: the server asked for it.
    @Test func aLongReconnectionTimeIsNotCapped() {
        let delay = configuration.delay(afterFailuresInARow: 9, reconnectionTime: .seconds(120), jitterSample: 0.9)
        #expect(delay == .seconds(120))
    }

    /// A zero reconnection time stays zero (no backoff grows from zero), the jitter and caps notwithstanding.
    @Test func zeroStaysZero() {
        #expect(configuration.delay(afterFailuresInARow: 7, reconnectionTime: .zero, jitterSample: 0.3) == .zero)
    }

    /// The defaults the documentation states.
    @Test func defaults() {
        let defaults = EventSource.Configuration()
        #expect(defaults.defaultReconnectionTime == .seconds(3))
        #expect(defaults.maxReconnectionTime == .seconds(600))
        #expect(defaults.maxBackoff == .seconds(30))
        #expect(defaults.jitter == 0.5)
        #expect(defaults.maxReconnects == 10)
        #expect(defaults.maxErrorBodyBytes == 1 << 20)
    }
}

import MindPadRules
import Testing
@testable import MindPadServer

@Suite struct LiveGuessPacerTests {
    func at(_ ms: Int64) -> RaceInstant { RaceInstant(milliseconds: ms) }

    @Test func readsAtOnceThenWaitsForTheIntervalAndTheReading() {
        var p = LiveGuessPacer(interval: .milliseconds(100))
        #expect(p.strokesAdded(at: at(0)) == .read)
        // While a reading runs, batches only mark that another is wanted.
        #expect(p.strokesAdded(at: at(20)) == .none)
        #expect(p.strokesAdded(at: at(40)) == .none)
        // It comes back early: the next waits for the interval.
        #expect(p.readingFinished(at: at(50)) == .wake(at: at(100)))
        #expect(p.strokesAdded(at: at(60)) == .none)
        #expect(p.timerFired(at: at(100)) == .read)
        // Nothing new arrived meanwhile: nothing more to read.
        #expect(p.readingFinished(at: at(130)) == .none)
        #expect(p.timerFired(at: at(300)) == .none)
    }

    @Test func aSlowReadingIsFollowedAtOnceByOneForTheLastBatch() {
        var p = LiveGuessPacer(interval: .milliseconds(100))
        #expect(p.strokesAdded(at: at(0)) == .read)
        #expect(p.strokesAdded(at: at(10)) == .none)
        #expect(p.readingFinished(at: at(250)) == .read)
        #expect(p.readingFinished(at: at(260)) == .none)
    }

    @Test func cancellingDropsWhatWasWanted() {
        var p = LiveGuessPacer(interval: .milliseconds(100))
        #expect(p.strokesAdded(at: at(0)) == .read)
        #expect(p.strokesAdded(at: at(10)) == .none)
        p.cancel()
        #expect(p.readingFinished(at: at(20)) == .none)
        #expect(p.strokesAdded(at: at(30)) == .wake(at: at(100)))
        // A second batch while waiting adds no second timer.
        #expect(p.strokesAdded(at: at(40)) == .none)
    }
}

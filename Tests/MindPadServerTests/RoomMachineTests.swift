import Foundation
import Logging
import MindPadJSON
import MindPadRules
import Testing
@testable import MindPadServer

/// A room is a machine (issue 44, item 3): given an event and the time it
/// returns what the hub is to do, and nothing else happens. Driven here
/// with no hub, no transport, no clock and no storage: a whole race of a
/// toy kind, from the first join to `left_room`'s cue, in memory.
@Suite struct RoomMachineTests {
    static let ann = Session.Player(id: "ann", accountID: 7, name: try! PlayerName(validating: "Ann"))
    static let t0 = RaceInstant(milliseconds: 1_000_000)

    func room() -> RoomOwner<QuickPick> {
        RoomOwner(code: "ROOM", race: RaceStateMachine(kind: QuickPick(), configuration: RaceConfiguration(mode: .normal),
                                                       seed: 42, now: Self.t0),
                  now: Self.t0, progressInterval: .milliseconds(200), logger: Logger(label: "test"))
    }

    /// The types of the messages sent to `player`, in order.
    func sent(_ actions: [RoomAction], to player: PlayerID = "ann") -> [String] {
        actions.compactMap { if case .send(let m, let p) = $0, p == player { m.type } else { nil } }
    }

    /// The options of a `question` message's prompt.
    func options(_ question: JSON) -> [Int]? {
        question["prompt"]?["options"]?.array.map { $0.compactMap { $0.integer } }
    }

    func message(_ type: String, in actions: [RoomAction]) throws -> JSON {
        let found = actions.compactMap { action -> OutgoingMessage? in
            if case .send(let m, _) = action, m.type == type { m } else { nil }
        }
        let m = try #require(found.first)
        return try JSON.parse(m.payload.text)
    }

    @Test func aWholeRaceIsEventsInAndActionsOut() throws {
        let room = room()
        var now = Self.t0
        // Joining: the member is the hub's to book, and gets the room.
        let joined = room.handle(.join(Self.ann, fish: nil), at: now, request: "create_room")
        #expect(joined.contains { if case .memberJoined("ann") = $0 { true } else { false } })
        #expect(sent(joined) == ["room"])

        // Start: the countdown, and the room's timer for its end.
        now = now + .seconds(1)
        let started = room.handle(.start(by: "ann"), at: now, request: "start")
        #expect(sent(started).contains("countdown"))
        #expect(started.contains { if case .setTimer(.tick, let at) = $0 { at == now + .seconds(3) } else { false } })

        // The timer fires: the race and its first question; the pad is not the answer's (a choice game).
        now = now + .seconds(3)
        let racing = room.timerFired(.tick, at: now)
        #expect(sent(racing).prefix(2) == ["race_started", "question"])
        #expect(racing.contains { if case .questionSent(let q?, "ann", nil) = $0 { q.index == 0 } else { false } })
        let first = try message("question", in: racing)
        #expect(first["question"]?.string == "r1q0")

        // Answers: graded and progress at once; a second progress within the interval waits for its timer.
        var prompt = try #require(options(first))
        now = now + .milliseconds(500)
        var best = prompt.firstIndex(of: prompt.max()!)!
        var (graded, actions) = room.submit(.wire(.object([("option_index", .int(best))]), keypad: false), by: "ann",
                                            to: QuestionID(round: 1, index: 0), receivedAt: now, at: now, request: "submit")
        #expect(graded == true)
        #expect(sent(actions).prefix(3) == ["graded", "question", "progress"])
        prompt = try #require(options(try message("question", in: actions)))
        now = now + .milliseconds(50)
        best = prompt.firstIndex(of: prompt.max()!)!
        (graded, actions) = room.submit(.wire(.object([("option_index", .int((best + 1) % 3))]), keypad: false), by: "ann",
                                        to: QuestionID(round: 1, index: 1), receivedAt: now, at: now, request: "submit")
        #expect(graded == false && !sent(actions).contains("progress"))
        let progressAt = now + RaceDuration.milliseconds(150)   // 200 ms after the first progress
        #expect(actions.contains { if case .setTimer(.progress, let at) = $0 { at == progressAt } else { false } })
        #expect(sent(room.timerFired(.progress, at: progressAt)) == ["progress"])

        // The last answer ends the run: it goes to storage, and the room
        // holds what it says to Ann until the run is durable.
        prompt = try #require(options(try message("question", in: actions)))
        now = progressAt + .milliseconds(300)
        best = prompt.firstIndex(of: prompt.max()!)!
        (graded, actions) = room.submit(.wire(.object([("option_index", .int(best))]), keypad: false), by: "ann",
                                        to: QuestionID(round: 1, index: 2), receivedAt: now, at: now, request: "submit")
        #expect(graded == true)
        let stored = actions.compactMap { action -> FinishedRun? in if case .store(let run) = action { run } else { nil } }
        let run = try #require(stored.first)
        #expect(run.account == 7 && run.result.correct == 2 && run.result.answered == 3 && run.answers.count == 3)
        #expect(actions.contains { if case .questionSent(nil, "ann", nil) = $0 { true } else { false } })
        #expect(sent(actions) == ["graded"])
        #expect(room.awaitLastWords(of: "ann").isEmpty)

        // Durable: what was held goes, in order; the last words wait for result_saved.
        let durable = room.resultDurable("ann", at: now + .milliseconds(5))
        #expect(sent(durable).first == "finished" && sent(durable).contains("standings"))
        #expect(!durable.contains { if case .lastWordsSaid = $0 { true } else { false } })
        let saved = OutgoingMessage("result_saved", [("round", .int(1))])
        let said = room.resultSaved("ann", round: 1, saved, at: now + .milliseconds(20))
        #expect(sent(said) == ["result_saved"])
        #expect(said.contains { if case .lastWordsSaid("ann") = $0 { true } else { false } })
        // Asked again with nothing on its way: at once.
        #expect(room.awaitLastWords(of: "ann").contains { if case .lastWordsSaid("ann") = $0 { true } else { false } })
    }

    /// The room reads no clock: the same events at the same times give the
    /// same actions, whenever they are fed.
    @Test func theSameEventsAtTheSameTimesGiveTheSameActions() {
        func script() -> [String] {
            let room = room()
            var out: [RoomAction] = []
            out += room.handle(.join(Self.ann, fish: nil), at: Self.t0, request: "create_room")
            out += room.handle(.start(by: "ann"), at: Self.t0 + .seconds(1), request: "start")
            out += room.timerFired(.tick, at: Self.t0 + .seconds(4))
            out += room.handle(.leave("ann"), at: Self.t0 + .seconds(6), request: "leave_room")
            return out.map { action in
                switch action {
                case .send(let m, let p): "send \(m.type) \(p)"
                case .questionSent(let q, let p, _): "question \(q.map { "\($0)" } ?? "-") \(p)"
                case .store(let run): "store \(run.result.player) \(run.result.duration.milliseconds)"
                case .setTimer(let t, let at): "set \(t) \(at.milliseconds)"
                case .cancelTimer(let t): "cancel \(t)"
                case .memberJoined(let p): "joined \(p)"
                case .memberLeft(let p): "left \(p)"
                case .lastWordsSaid(let p): "said \(p)"
                case .disposed: "disposed"
                case .toConductor(let m): "conductor \(m.type)"
                case .raceBegan: "race began"
                }
            }
        }
        let once = script()
        #expect(once == script())
        // Leaving mid-race stores the run of 2 s; the room goes, and its member is booked out.
        #expect(once.contains("store ann 2000") && once.suffix(2) == ["disposed", "left ann"], "\(once)")
    }
}

@testable import MindPadHTTP
@testable import MindPadTransport
import Foundation
import MindPadJSON
import MindPadRecognition
import MindPadRules
import MindPadStorage
import Synchronization
@testable import MindPadServer

/// The realtime transport in memory, with a manual clock: what the hub sends
/// is kept per connection, timers fire when the test moves the clock, and
/// posted jobs run when the test settles. No sockets, threads or sleeps.
final class ManualTransport: RealtimeTransport, @unchecked Sendable {
    private(set) var now: RaceInstant = RaceInstant(milliseconds: 1_000)
    /// The wall clock the hub stores results with: a fixed instant
    /// (2026-12-02 12:00 UTC) that moves with `now`.
    var wallClockOrigin: Int64 = 1_796_212_800_000
    var wallClockMs: Int64 { wallClockOrigin + now.milliseconds - 1_000 }
    /// What was sent to each connection, with the clock's time.
    private(set) var sent: [ConnectionID: [(at: RaceInstant, text: String)]] = [:]
    /// The payloads themselves, to tell a shared encoding from a copy.
    private(set) var payloads: [ConnectionID: [WebSocketPayload]] = [:]
    private(set) var closed: [ConnectionID: (code: UInt16, reason: String)] = [:]
    private var timers: [(due: RaceInstant, id: UInt64, job: () -> Void)] = []
    private var nextTimer: UInt64 = 1
    private let posted = Mutex<[@Sendable () -> Void]>([])

    func send(_ message: WebSocketPayload, to connection: ConnectionID) {
        guard closed[connection] == nil else { return }
        sent[connection, default: []].append((now, message.text))
        payloads[connection, default: []].append(message)
    }

    func close(_ connection: ConnectionID, code: UInt16, reason: String) {
        if closed[connection] == nil { closed[connection] = (code, reason) }
    }

    @discardableResult
    func schedule(at deadline: RaceInstant, _ job: @escaping () -> Void) -> TimerToken {
        defer { nextTimer += 1 }
        timers.append((deadline, nextTimer, job))
        return TimerToken(raw: nextTimer)
    }

    func cancel(_ timer: TimerToken?) {
        guard let timer else { return }
        timers.removeAll { $0.id == timer.raw }
    }

    func post(_ job: @escaping @Sendable () -> Void) {
        posted.withLock { $0.append(job) }
    }

    /// Timers waiting.
    var pendingTimers: [RaceInstant] { timers.map(\.due).sorted() }

    /// Runs every posted job, and the jobs those post, until none is left.
    func settle() {
        while true {
            let jobs = posted.withLock { jobs in
                defer { jobs.removeAll() }
                return jobs
            }
            if jobs.isEmpty { return }
            jobs.forEach { $0() }
        }
    }

    /// Moves the clock forward, firing each timer at its own instant in
    /// (due, scheduling) order and settling after each.
    func advance(by duration: RaceDuration) {
        let end = now + duration
        settle()
        while let next = timers.min(by: { ($0.due, $0.id) < ($1.due, $1.id) }), next.due <= end {
            timers.removeAll { $0.id == next.id }
            now = max(now, next.due)
            next.job()
            settle()
        }
        now = end
    }

    /// Takes what was sent to `connection` so far.
    func take(_ connection: ConnectionID) -> [(at: RaceInstant, text: String)] {
        defer { sent[connection] = [] }
        return sent[connection] ?? []
    }
}

/// Players in memory; answers at once (through the hub's `post`, like the
/// real directory's database workers). `down` answers `unavailable`.
final class InMemoryPlayerDirectory: PlayerDirectory {
    let players = Mutex<[String: (IdentifiedPlayer, String)]>([:])
    let down = Atomic<Bool>(false)

    func register(name: String, nameKey: String,
                  completion: @escaping @Sendable (Result<(IdentifiedPlayer, token: String), IdentityError>) -> Void) {
        if down.load(ordering: .relaxed) { return completion(.failure(.unavailable)) }
        completion(players.withLock { p in
            if p[nameKey] != nil { return .failure(.nameTaken) }
            let player = IdentifiedPlayer(id: Int64(p.count + 1), name: name)
            let token = "token-\(nameKey)"
            p[nameKey] = (player, token)
            return .success((player, token))
        })
    }

    func authenticate(nameKey: String, token: String,
                      completion: @escaping @Sendable (Result<IdentifiedPlayer, IdentityError>) -> Void) {
        if down.load(ordering: .relaxed) { return completion(.failure(.unavailable)) }
        let found = players.withLock { $0[nameKey] }
        guard let found, found.1 == token else { return completion(.failure(.wrongToken)) }
        var player = found.0
        player.hand = hands.withLock { $0[player.id] } ?? StoredHand(learns: true, bytes: nil, learned: 0)
        completion(.success(player))
    }

    /// Players' hands as stored (`keepHand`, `setHandLearning`), by player id.
    let hands = Mutex<[Int64: StoredHand]>([:])
    /// How many times a hand was stored.
    let handSaves = Atomic<Int>(0)

    func keepHand(playerID: Int64, bytes: [UInt8], learned: Int, completion: @escaping @Sendable (Bool) -> Void) {
        if down.load(ordering: .relaxed) { return completion(false) }
        let saved = hands.withLock { h -> Bool in
            guard h[playerID]?.learns ?? true else { return false }
            h[playerID] = StoredHand(learns: true, bytes: bytes, learned: learned)
            return true
        }
        if saved { handSaves.add(1, ordering: .relaxed) }
        completion(saved)
    }

    func setHandLearning(playerID: Int64, learns: Bool, forget: Bool, completion: @escaping @Sendable (Bool) -> Void) {
        if down.load(ordering: .relaxed) { return completion(false) }
        hands.withLock { h in
            let kept = forget || !learns ? nil : h[playerID]?.bytes
            h[playerID] = StoredHand(learns: learns, bytes: kept, learned: kept == nil ? 0 : h[playerID]?.learned ?? 0)
        }
        completion(true)
    }
}

/// Keeps results in memory and answers at once: stored, or journaled.
final class MemoryResultSink: ResultSink {
    let records = Mutex<[GameResultRecord]>([])
    let journal: Bool
    init(journal: Bool) { self.journal = journal }

    func record(_ result: GameResultRecord, durable: @escaping @Sendable () -> Void,
                completion: @escaping @Sendable (ResultDelivery) -> Void) {
        records.withLock { $0.append(result) }
        durable()
        completion(journal ? .journaled : .stored(RecordOutcome(stored: true, personalBest: true, previousBest: nil)))
    }
}

/// The real recognizer, run on the calling thread; counts its readings
/// (and what its hands learned).
final class InlineRecognizer: DrawingRecognizer {
    private let state: Mutex<(workspace: Recognizer.Workspace, readings: Int, learned: Int)>
    private let recognizer: Recognizer

    init(_ recognizer: Recognizer? = nil) throws {
        self.recognizer = try recognizer ?? Recognizer.bundled()
        state = Mutex((self.recognizer.makeWorkspace(), 0, 0))
    }

    var learned: Int { state.withLock { $0.learned } }

    func learn(_ drawing: Drawing, as digit: Int, into hand: PlayerHand, completion: @escaping @Sendable (PlayerHand) -> Void) {
        var taught = hand
        state.withLock { s in
            s.learned += 1
            try? recognizer.learn(drawing, as: digit, into: &taught, in: s.workspace)
        }
        completion(taught)
    }

    func makeHand() -> PlayerHand? { recognizer.makeHand() }

    var handModel: HandModel? { recognizer.hand }

    var readings: Int { state.withLock { $0.readings } }

    func recognize(_ drawing: Drawing, hand: PlayerHand?,
                   completion: @escaping @Sendable (Result<Recognition, RecognitionError>) -> Void) {
        let result = state.withLock { s in
            s.readings += 1
            return Result { () throws(RecognitionError) in try recognizer.recognize(drawing, in: s.workspace, hand: hand) }
        }
        completion(result)
    }

    func readNumber(_ drawing: Drawing, hand: PlayerHand?,
                    completion: @escaping @Sendable (Result<NumberReading, RecognitionError>) -> Void) {
        let result = state.withLock { s in
            s.readings += 1
            return Result { () throws(RecognitionError) in try recognizer.readNumber(drawing, in: s.workspace, hand: hand) }
        }
        completion(result)
    }
}

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
        if let found, found.1 == token { completion(.success(found.0)) } else { completion(.failure(.wrongToken)) }
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

/// The real recognizer, run on the calling thread; counts its readings.
final class InlineRecognizer: DrawingRecognizer {
    private let state: Mutex<(workspace: Recognizer.Workspace, readings: Int)>
    private let recognizer: Recognizer

    init() throws {
        recognizer = try Recognizer.bundled()
        state = Mutex((recognizer.makeWorkspace(), 0))
    }

    var readings: Int { state.withLock { $0.readings } }

    func recognize(_ drawing: Drawing, completion: @escaping @Sendable (Result<Recognition, RecognitionError>) -> Void) {
        let result = state.withLock { s in
            s.readings += 1
            return Result { () throws(RecognitionError) in try recognizer.recognize(drawing, in: s.workspace) }
        }
        completion(result)
    }

    func readNumber(_ drawing: Drawing, completion: @escaping @Sendable (Result<NumberReading, RecognitionError>) -> Void) {
        let result = state.withLock { s in
            s.readings += 1
            return Result { () throws(RecognitionError) in try recognizer.readNumber(drawing, in: s.workspace) }
        }
        completion(result)
    }
}

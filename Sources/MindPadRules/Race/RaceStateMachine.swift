/// One room and its races: lobby → countdown → running → finished, and back
/// to the lobby on a rematch.
///
/// A pure value in the style of postgres-nio's `ConnectionStateMachine`: the
/// owner feeds it events with the server time (`handle(_:at:)`) and carries
/// out the effects it returns (send, broadcast, store, set the timer). It
/// never reads a clock and never does I/O, so whole races run in tests with
/// a manual clock. One owner per room serialises the events.
///
/// Timing: the machine keeps every deadline (countdown end, Time Attack end,
/// reconnection grace) and asks for one timer with `.scheduleTick(at:)`.
/// Deadlines fire at their own instants, not at the tick's arrival, so a
/// late timer changes nothing: Time Attack ends at exactly `startedAt +
/// timeAttackLength` for everyone, and an answer at or after that instant
/// is refused as `.raceOver` even if the tick has not arrived yet.
public struct RaceStateMachine<Kind: GameKind>: Sendable {
    public let kind: Kind
    public let configuration: RaceConfiguration
    /// 1 for the first race, +1 per rematch.
    public internal(set) var round: Int
    /// The current round's seed. Server side only: never send it to clients.
    public internal(set) var seed: UInt64

    var state: State
    /// In join order (ascending seat).
    var members: [RoomMember]
    var host: PlayerID?
    var nextSeat: Int
    var scheduledTick: RaceInstant?
    /// The latest time seen; an event stamped earlier is treated as now.
    var clock: RaceInstant

    enum State: Sendable {
        case lobby
        case countdown(startsAt: RaceInstant)
        case running(Running)
        case finished(Standings)
        case disposed
    }

    struct Running: Sendable {
        let startedAt: RaceInstant
        /// Time Attack only; moved on by a pause's length when it ends.
        var endsAt: RaceInstant?
        /// A lesson's race the teacher paused, since when.
        var pausedAt: RaceInstant?
        /// In seat order, including racers who left.
        var racers: [RacerRun<Kind.Attempt>]
    }

    /// A deadline that can come due.
    enum Deadline: Sendable {
        case countdownEnds
        case timeAttackEnds
        case graceExpires(PlayerID)
    }

    /// An empty room in the lobby. The first member to join becomes host.
    public init(kind: Kind, configuration: RaceConfiguration, seed: UInt64, now: RaceInstant = .zero) {
        self.kind = kind
        self.configuration = configuration
        self.round = 1
        self.seed = seed
        self.state = .lobby
        self.members = []
        self.host = nil
        self.nextSeat = 0
        self.scheduledTick = nil
        self.clock = now
    }

    /// Processes one event at server time `now` and returns what to do.
    public mutating func handle(_ event: RaceEvent<Kind>, at now: RaceInstant) -> [RaceEffect<Kind>] {
        let now = max(now, clock)
        clock = now
        var effects: [RaceEffect<Kind>] = []
        advance(to: now, into: &effects)
        switch event {
        case .join(let id, let name):
            join(id, name: name, at: now, into: &effects)
        case .leave(let id):
            leave(id, at: now, into: &effects)
        case .disconnect(let id):
            disconnect(id, at: now, into: &effects)
        case .reconnect(let id):
            reconnect(id, at: now, into: &effects)
        case .setReady(let id, let ready):
            setReady(id, ready, into: &effects)
        case .start(let id):
            start(by: id, at: now, into: &effects)
        case .answer(let id, let question, let answer, let confidence, let keypad):
            submit(answer, confidence: confidence, keypad: keypad, to: question, by: id, at: now, into: &effects)
        case .rematch(let id, let seed):
            rematch(by: id, seed: seed, into: &effects)
        case .tick:
            break
        case .conduct(let conduct):
            self.conduct(conduct, at: now, into: &effects)
        }
        // A zero countdown or grace can be due at once.
        advance(to: now, into: &effects)
        updateTimer(into: &effects)
        return effects
    }

    // MARK: - Deadlines

    /// Fires every deadline up to `now`, earliest first, each at its own instant.
    mutating func advance(to now: RaceInstant, into effects: inout [RaceEffect<Kind>]) {
        while let (instant, deadline) = nextDeadline(), instant <= now {
            switch deadline {
            case .countdownEnds:
                startRace(at: instant, into: &effects)
            case .timeAttackEnds:
                endTimeAttack(at: instant, into: &effects)
            case .graceExpires(let id):
                let since = disconnectedSince(id) ?? instant
                removeMember(id, leftAt: since, into: &effects)
            }
        }
    }

    /// The earliest pending deadline. Race deadlines come before grace
    /// expiries at the same instant, and graces go in seat order.
    func nextDeadline() -> (RaceInstant, Deadline)? {
        var best: (RaceInstant, Deadline)?
        switch state {
        case .countdown(let startsAt):
            best = (startsAt, .countdownEnds)
        case .running(let running):
            // A paused race's clock stands still.
            if let endsAt = running.endsAt, running.pausedAt == nil { best = (endsAt, .timeAttackEnds) }
        case .lobby, .finished, .disposed:
            break
        }
        for member in members {
            guard let deadline = member.graceDeadline else { continue }
            if best == nil || deadline < best!.0 {
                best = (deadline, .graceExpires(member.id))
            }
        }
        return best
    }

    mutating func updateTimer(into effects: inout [RaceEffect<Kind>]) {
        let next = nextDeadline()?.0
        guard next != scheduledTick else { return }
        scheduledTick = next
        effects.append(next.map { .scheduleTick(at: $0) } ?? .cancelTick)
    }

    func disconnectedSince(_ id: PlayerID) -> RaceInstant? {
        guard let member = members.first(where: { $0.id == id }) else { return nil }
        switch member.connection {
        case .connected: return nil
        case .disconnected(let since, _): return since
        }
    }
}

import Foundation
import MindPadRecognition
import MindPadRules
import MindPadStorage

/// The thin owner of one room: feeds events into its `MindPadRace` with the
/// server's time and carries out the effects — sends, broadcasts, results to
/// storage, the room's one timer, and progress coalesced to ~5 Hz. Service
/// thread only.
final class RoomOwner {
    let code: String
    private(set) var race: MindPadRace
    private unowned let hub: RealtimeHub
    /// Members after the last event, to notice who left or timed out.
    private(set) var members: Set<PlayerID> = []
    private var tick: TimerToken?
    private var pendingProgress: RaceProgress?
    private var lastProgressAt: ContinuousClock.Instant?
    private var progressTimer: TimerToken?
    /// Confidence of the recognized digit, per player, for `graded`.
    var submittedConfidence: [PlayerID: Float] = [:]
    /// What the room says while a finished result is not yet durable.
    private var held = HeldMessages()

    init(code: String, race: MindPadRace, hub: RealtimeHub) {
        self.code = code
        self.race = race
        self.hub = hub
    }

    /// Handles one event at `now` (default: the server clock). `request` is
    /// the client message type that caused it, echoed in refusals.
    func handle(_ event: RaceEvent<MindPadArithmetic>, at now: RaceInstant? = nil, request: String? = nil) {
        let now = now ?? hub.clock.now
        let effects = race.handle(event, at: now)
        let clockNow = hub.clock.now
        for effect in effects { carryOut(effect, now: clockNow, request: request) }
        syncMembers()
    }

    private func carryOut(_ effect: RaceEffect<MindPadArithmetic>, now: RaceInstant, request: String?) {
        switch effect {
        case .roomUpdated(let snapshot):
            broadcast(ServerMessage.roomUpdated(code: code, snapshot: snapshot, now: now))
        case .resync(let id, let room, let progress, let standings):
            say(ServerMessage.room(code: code, you: id, snapshot: room, progress: progress, standings: standings, now: now), to: id)
        case .countdownStarted(let round, let startsAt):
            broadcast(ServerMessage.countdown(round: round, startsAt: startsAt, now: now))
        case .raceStarted(let round, let mode, _, let endsAt):
            broadcast(ServerMessage.raceStarted(round: round, mode: mode, endsAt: endsAt, now: now))
        case .sendQuestion(let delivery):
            hub.questionSent(delivery.id, to: delivery.player)
            say(ServerMessage.question(delivery), to: delivery.player)
        case .answerGraded(let outcome):
            let confidence = submittedConfidence.removeValue(forKey: outcome.player)
            say(ServerMessage.graded(outcome, confidence: confidence), to: outcome.player)
        case .progress(let progress):
            pendingProgress = progress
            flushProgress(force: false)
        case .playerFinished(let result):
            hub.questionSent(nil, to: result.player)
            // From here the room's messages wait until the result is in
            // the fsynced journal (HeldMessages).
            held.hold()
            say(ServerMessage.finished(result), to: result.player)
            hub.store(result, room: code) { [self] in
                for (text, players) in held.release() {
                    for player in players { hub.send(text: text, to: player) }
                }
            }
        case .raceFinished(let standings):
            flushProgress(force: true)
            broadcast(ServerMessage.standings(standings))
        case .rejected(let id, let error):
            say(ServerMessage.error(ProtocolError(error.code, error.description, request: request)), to: id)
        case .scheduleTick(let at):
            hub.timers.cancel(tick)
            let delay = Duration.milliseconds((at - hub.clock.now).milliseconds)
            tick = hub.timers.schedule(after: delay) { [weak self] in self?.handle(.tick) }
        case .cancelTick:
            hub.timers.cancel(tick)
            tick = nil
        case .roomDisposed:
            hub.timers.cancel(tick)
            hub.timers.cancel(progressTimer)
            tick = nil
            progressTimer = nil
            hub.roomDisposed(code)
        }
    }

    /// Sends the latest progress now if the last one went out at least one
    /// interval ago (or `force`), else once that interval is over.
    private func flushProgress(force: Bool) {
        guard let progress = pendingProgress else { return }
        let now = ContinuousClock.now
        let interval = hub.options.progressInterval
        if force || lastProgressAt.map({ now - $0 >= interval }) ?? true {
            hub.timers.cancel(progressTimer)
            progressTimer = nil
            pendingProgress = nil
            lastProgressAt = now
            broadcast(ServerMessage.progress(progress))
        } else if progressTimer == nil {
            progressTimer = hub.timers.schedule(after: interval - (now - lastProgressAt!)) { [weak self] in
                self?.progressTimer = nil
                self?.flushProgress(force: false)
            }
        }
    }

    private func broadcast(_ message: WireJSON) {
        say(message.text, to: race.snapshot.members.filter(\.isConnected).map(\.id))
    }

    private func say(_ message: WireJSON, to player: PlayerID) { say(message.text, to: [player]) }

    /// Sends now, or after the results finished before are durable.
    private func say(_ text: String, to players: [PlayerID]) {
        guard !held.isHolding else { return held.keep(text, to: players) }
        for player in players { hub.send(text: text, to: player) }
    }

    private func syncMembers() {
        let now = Set(race.snapshot.members.map(\.id))
        for gone in members.subtracting(now) { hub.memberLeft(gone, room: code) }
        for joined in now.subtracting(members) { hub.memberJoined(joined, room: code) }
        members = now
    }
}

/// A lesson's room, conducted by a teacher outside it (issue 46,
/// `RaceConfiguration.conducted`).
extension RaceStateMachine {
    mutating func conduct(_ conduct: Conduct, at now: RaceInstant, into effects: inout [RaceEffect<Kind>]) {
        guard configuration.conducted else {
            effects.append(.conductorRefused(.notALesson))
            return
        }
        switch conduct {
        case .start: conductStart(at: now, into: &effects)
        case .pause: setPaused(true, at: now, into: &effects)
        case .resume: setPaused(false, at: now, into: &effects)
        case .stop: stopRace(at: now, into: &effects)
        case .nextRound(let seed): nextRound(seed: seed, into: &effects)
        case .close: close(at: now, into: &effects)
        }
    }

    /// The teacher starts whoever is in: ready flags do not hold a class up.
    private mutating func conductStart(at now: RaceInstant, into effects: inout [RaceEffect<Kind>]) {
        switch state {
        case .lobby: break
        case .countdown, .running, .finished: return effects.append(.conductorRefused(.notInLobby))
        case .disposed: return effects.append(.conductorRefused(.roomClosed))
        }
        guard members.count(where: { $0.role == .racer }) >= configuration.minimumPlayers else {
            return effects.append(.conductorRefused(.notEnoughPlayers(minimum: configuration.minimumPlayers)))
        }
        let startsAt = now + configuration.countdown
        state = .countdown(startsAt: startsAt)
        effects.append(.countdownStarted(round: round, startsAt: startsAt))
        effects.append(.roomUpdated(snapshot))
    }

    /// Pausing stops every clock: on resume the Time Attack end and each
    /// racer's question clock move on by the pause's length, so nobody
    /// loses time to it. Asking for what already holds changes nothing.
    private mutating func setPaused(_ paused: Bool, at now: RaceInstant, into effects: inout [RaceEffect<Kind>]) {
        guard case .running(var running) = state else {
            return effects.append(.conductorRefused(.raceNotRunning))
        }
        switch (running.pausedAt, paused) {
        case (nil, true):
            running.pausedAt = now
        case (let since?, false):
            let pause = now - since
            running.pausedAt = nil
            running.endsAt = running.endsAt.map { $0 + pause }
            for index in running.racers.indices where running.racers[index].isPlaying {
                running.racers[index].questionSentAt = running.racers[index].questionSentAt + pause
            }
        case (nil, false), (_?, true):
            return
        }
        state = .running(running)
        effects.append(.roomUpdated(snapshot))
    }

    /// The race ends now: runs still going end, not completed.
    private mutating func stopRace(at now: RaceInstant, into effects: inout [RaceEffect<Kind>]) {
        guard case .running(var running) = state else {
            return effects.append(.conductorRefused(.raceNotRunning))
        }
        running.pausedAt = nil
        for index in running.racers.indices where running.racers[index].isPlaying {
            running.racers[index].status = .abandoned(at: now)
            effects.append(.playerFinished(result(for: running.racers[index], in: running)))
        }
        state = .running(running)
        effects.append(.progress(progress(of: running)))
        finishIfEveryoneDone(at: now, into: &effects)
    }

    private mutating func nextRound(seed newSeed: UInt64, into effects: inout [RaceEffect<Kind>]) {
        switch state {
        case .finished: break
        case .lobby, .countdown, .running: return effects.append(.conductorRefused(.raceNotFinished))
        case .disposed: return effects.append(.conductorRefused(.roomClosed))
        }
        beginNextRound(seed: newSeed, into: &effects)
    }

    private mutating func close(at now: RaceInstant, into effects: inout [RaceEffect<Kind>]) {
        if case .disposed = state { return }
        if case .running(var running) = state, running.pausedAt != nil {
            running.pausedAt = nil
            state = .running(running)
        }
        for id in members.map(\.id) { removeMember(id, leftAt: now, into: &effects) }
        state = .disposed
        effects.append(.roomDisposed)
    }
}

/// What the machine shows the owner: snapshots, progress, results.
extension RaceStateMachine {
    /// Where the room is.
    public var phase: RoomPhase {
        switch state {
        case .lobby: .lobby
        case .countdown(let startsAt): .countdown(startsAt: startsAt)
        case .running(let running): .running(startedAt: running.startedAt, endsAt: running.endsAt)
        case .finished: .finished
        case .disposed: .disposed
        }
    }

    /// Members, roles, host and phase, safe to send to anyone.
    public var snapshot: RoomSnapshot {
        RoomSnapshot(
            round: round, mode: configuration.mode, kind: kind.identifier, level: configuration.level, phase: phase, host: host,
            members: members.map { member in
                MemberSnapshot(
                    id: member.id, name: member.name, role: member.role, isReady: member.isReady,
                    isConnected: member.isConnected, isHost: member.id == host
                )
            },
            maxPlayers: configuration.maxPlayers,
            isPaused: isPaused
        )
    }

    /// Live progress while the race runs.
    public var progress: RaceProgress? {
        switch state {
        case .running(let running): progress(of: running)
        case .lobby, .countdown, .finished, .disposed: nil
        }
    }

    /// Final standings once the race is over (until the rematch).
    public var standings: Standings? {
        switch state {
        case .finished(let standings): standings
        case .lobby, .countdown, .running, .disposed: nil
        }
    }

    /// The question the leading racer is on, for spectators: of the racers
    /// still playing, the one with the most correct answers, then the
    /// furthest on, then the earliest seat. nil unless the race runs and
    /// someone is still answering.
    public var leadersQuestion: QuestionDelivery<Kind>? {
        guard case .running(let running) = state else { return nil }
        let leader = running.racers.filter(\.isPlaying).min { a, b in
            (a.correct, a.questionIndex, -a.seat) > (b.correct, b.questionIndex, -b.seat)
        }
        return leader.map(delivery(for:))
    }

    /// The question each racer still playing is on, in seat order (a
    /// lesson's wall, when its teacher comes back).
    public var playingQuestions: [QuestionDelivery<Kind>] {
        guard case .running(let running) = state else { return [] }
        return running.racers.filter(\.isPlaying).map(delivery(for:))
    }

    /// A lesson's race the teacher paused.
    public var isPaused: Bool {
        if case .running(let running) = state { return running.pausedAt != nil }
        return false
    }

    /// The host, if the room has members.
    public var hostID: PlayerID? { host }

    /// The instant the owner's timer should fire next, if any.
    public var nextTick: RaceInstant? { nextDeadline()?.0 }

    func progress(of running: Running) -> RaceProgress {
        RaceProgress(round: round, mode: configuration.mode, racers: running.racers.map(\.progress))
    }

    /// The round's `index`-th question.
    func question(at index: Int) -> Kind.Question {
        kind.question(seed: seed, index: index, mode: configuration.mode, level: configuration.level)
    }

    /// The racer's current question as it stands (after a reconnect too).
    func delivery(for racer: RacerRun<Kind.Attempt>) -> QuestionDelivery<Kind> {
        let question = question(at: racer.questionIndex)
        return QuestionDelivery(
            player: racer.id, id: QuestionID(round: round, index: racer.questionIndex),
            prompt: kind.prompt(for: question, attempt: racer.attempt), question: question, attempt: racer.attempt,
            sentAt: racer.questionSentAt
        )
    }

    func result(for racer: RacerRun<Kind.Attempt>, in running: Running) -> PlayerResult {
        let endedAt: RaceInstant
        let completed: Bool
        switch racer.status {
        case .playing:
            endedAt = clock
            completed = false
        case .completed(let at):
            endedAt = at
            completed = true
        case .abandoned(let at):
            endedAt = at
            completed = false
        }
        return PlayerResult(
            player: racer.id, name: racer.name, kind: kind.identifier, mode: configuration.mode,
            round: round, seed: seed, score: racer.score, correct: racer.correct, wrong: racer.wrong,
            duration: endedAt - running.startedAt, scoreReachedAfter: racer.scoreReachedAt - running.startedAt,
            completed: completed, seat: racer.seat, keypadAnswers: racer.keypadAnswers, level: configuration.level,
            detail: kind.detail(of: question(at: racer.questionIndex), attempt: racer.attempt,
                                sentAfter: racer.questionSentAt - running.startedAt,
                                endedAfter: completed ? endedAt - running.startedAt : nil)
        )
    }

    func resync(_ id: PlayerID) -> RaceEffect<Kind> {
        .resync(id, room: snapshot, progress: progress, standings: standings)
    }
}

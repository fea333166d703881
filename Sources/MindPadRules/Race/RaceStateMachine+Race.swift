/// Starting, answering, finishing and rematching.
extension RaceStateMachine {
    mutating func start(by id: PlayerID, at now: RaceInstant, into effects: inout [RaceEffect<Kind>]) {
        guard members.contains(where: { $0.id == id }) else {
            effects.append(.rejected(id, rejectionForNonMember))
            return
        }
        switch state {
        case .lobby:
            break
        case .countdown, .running, .finished, .disposed:
            effects.append(.rejected(id, .notInLobby))
            return
        }
        guard host == id else {
            effects.append(.rejected(id, .notHost))
            return
        }
        let racers = members.filter { $0.role == .racer }
        guard racers.count >= configuration.minimumPlayers else {
            effects.append(.rejected(id, .notEnoughPlayers(minimum: configuration.minimumPlayers)))
            return
        }
        if configuration.requireReady {
            let waiting = racers.filter { $0.id != id && !($0.isReady && $0.isConnected) }
            guard waiting.isEmpty else {
                effects.append(.rejected(id, .playersNotReady(waiting.map(\.name))))
                return
            }
        }
        let startsAt = now + configuration.countdown
        state = .countdown(startsAt: startsAt)
        effects.append(.countdownStarted(round: round, startsAt: startsAt))
        effects.append(.roomUpdated(snapshot))
    }

    /// The countdown reached zero at `startsAt`: every racer's first
    /// question is sent, and its clock starts, at that same instant.
    mutating func startRace(at startsAt: RaceInstant, into effects: inout [RaceEffect<Kind>]) {
        let endsAt: RaceInstant?
        switch configuration.mode {
        case .timeAttack: endsAt = startsAt + configuration.timeAttackLength
        case .normal, .survival: endsAt = nil
        }
        let seated = members.filter { $0.role == .racer }
        let running = Running(
            startedAt: startsAt, endsAt: endsAt,
            racers: seated.map { member in
                let first = question(at: 0)
                let attempt = kind.attempt(for: first)
                return RacerRun(member: member, startedAt: startsAt, attempt: attempt,
                                remaining: kind.remaining(in: first, attempt: attempt))
            }
        )
        state = .running(running)
        effects.append(.raceStarted(round: round, mode: configuration.mode, startedAt: startsAt, endsAt: endsAt))
        for (member, racer) in zip(seated, running.racers) where member.isConnected {
            effects.append(.sendQuestion(delivery(for: racer)))
        }
        effects.append(.progress(progress(of: running)))
        effects.append(.roomUpdated(snapshot))
    }

    /// Whether an answer by `player` to `question` would be refused at
    /// `now`, and why; nil when it would be graded. A pure query (the
    /// machine is not changed): the owner asks before it spends time reading
    /// a drawing, and `submit` asks the same question, so the two never
    /// disagree. Deadlines due by `now` count as passed (an answer at the
    /// end of Time Attack is `raceOver` even if the tick has not come).
    public func refusal(ofAnswerBy player: PlayerID, to question: QuestionID, at now: RaceInstant) -> RaceError? {
        var future = self
        var ignored: [RaceEffect<Kind>] = []
        future.advance(to: max(now, clock), into: &ignored)
        return future.answerRefusal(by: player, to: question)
    }

    /// The refusal for the machine as it is (deadlines already advanced).
    func answerRefusal(by player: PlayerID, to id: QuestionID) -> RaceError? {
        guard members.contains(where: { $0.id == player }) else { return rejectionForNonMember }
        let running: Running
        switch state {
        case .running(let current): running = current
        case .lobby, .countdown: return .raceNotRunning
        case .finished: return .raceOver
        case .disposed: return .roomClosed
        }
        // A spectator never answers, even one who raced earlier in this
        // round (left, or back after the grace, and joined again to watch).
        guard members.first(where: { $0.id == player })?.role == .racer,
              let racer = running.racers.first(where: { $0.id == player }) else { return .notRacing }
        guard racer.isPlaying else { return .alreadyFinished }
        if running.pausedAt != nil { return .paused }
        let current = QuestionID(round: round, index: racer.questionIndex)
        guard id == current else {
            let stale = id.round < round || (id.round == round && id.index < racer.questionIndex)
            return stale ? .staleQuestion(id, current: current) : .unsentQuestion(id, current: current)
        }
        return nil
    }

    mutating func submit(
        _ answer: Kind.Answer, confidence: Double?, keypad: Bool, to id: QuestionID, by player: PlayerID,
        at now: RaceInstant, into effects: inout [RaceEffect<Kind>]
    ) {
        if let refusal = answerRefusal(by: player, to: id) {
            effects.append(.rejected(player, refusal))
            return
        }
        guard case .running(var running) = state,
              let r = running.racers.firstIndex(where: { $0.id == player }) else { return }
        var racer = running.racers[r]

        let question = question(at: racer.questionIndex)
        let spent = now - racer.questionSentAt
        // As the racer saw it: judging may change the attempt (a retry).
        let asked = kind.prompt(for: question, attempt: racer.attempt)
        let timeline = (asked: racer.questionSentAt - running.startedAt, answered: now - running.startedAt)
        // What a rule forbids is no answer: refused before it is judged,
        // counted or logged (a kids' value none of the options, a grid of
        // 0 rows).
        if let refusal = kind.refusal(of: answer, to: question, attempt: racer.attempt, drawn: confidence != nil) {
            effects.append(.rejected(player, refusal))
            return
        }
        let isCorrect: Bool
        switch kind.judge(answer, to: question, attempt: &racer.attempt, after: spent) {
        case .refused(let error):
            // Not counted: the racer's run stays exactly as it was.
            effects.append(.rejected(player, error))
            return
        case .step:
            // The same question, as it now stands; nothing is graded. A
            // reviewable step (the path finder's right guess) is an answer
            // all the same: logged, right, for no points.
            racer.remaining = kind.remaining(in: question, attempt: racer.attempt)
            running.racers[r] = racer
            state = .running(running)
            if kind.isReviewable(answer) {
                effects.append(.answerLogged(AnswerOutcome(
                    player: player, question: id, answer: answer, confidence: confidence, isCorrect: true,
                    correctAnswer: kind.correctAnswer(to: question), secondsSpent: Int(spent.wholeSeconds),
                    points: 0, score: racer.score, finishedRun: false, retry: false,
                    prompt: asked, keypad: keypad, askedAfter: timeline.asked, answeredAfter: timeline.answered,
                    isReviewable: true
                )))
            }
            effects.append(.sendQuestion(delivery(for: racer)))
            effects.append(.progress(progress(of: running)))
            return
        case .tryAgain:
            racer.wrong += 1
            if keypad { racer.keypadAnswers += 1 }
            racer.remaining = kind.remaining(in: question, attempt: racer.attempt)
            running.racers[r] = racer
            state = .running(running)
            effects.append(.answerGraded(AnswerOutcome(
                player: player, question: id, answer: answer, confidence: confidence, isCorrect: false,
                correctAnswer: kind.correctAnswer(to: question), secondsSpent: Int(spent.wholeSeconds),
                points: 0, score: racer.score, finishedRun: false, retry: true,
                prompt: asked, keypad: keypad, askedAfter: timeline.asked, answeredAfter: timeline.answered,
                isReviewable: kind.isReviewable(answer)
            )))
            effects.append(.sendQuestion(delivery(for: racer)))
            effects.append(.progress(progress(of: running)))
            return
        case .graded(let correct):
            isCorrect = correct
            // The answer changed the question as it stands (the path
            // finder's move onto the goal): the racer sees it so, under the
            // same id, before the grade, and progress says where it ended.
            if kind.prompt(for: question, attempt: racer.attempt) != asked {
                racer.remaining = kind.remaining(in: question, attempt: racer.attempt)
                effects.append(.sendQuestion(delivery(for: racer)))
            }
        }
        let seconds = Int(spent.wholeSeconds)
        let points: Int
        switch configuration.mode {
        case .normal, .survival: points = isCorrect ? kind.points(for: question, attempt: racer.attempt, time: spent) : 0
        case .timeAttack: points = isCorrect ? 1 : 0
        }
        if isCorrect { racer.correct += 1 } else { racer.wrong += 1 }
        if keypad { racer.keypadAnswers += 1 }
        if points > 0 {
            racer.score += points
            racer.scoreReachedAt = now
        }
        let runEnds: Bool
        switch configuration.mode {
        case .normal: runEnds = racer.questionIndex + 1 >= kind.normalQuestionCount
        case .survival: runEnds = !isCorrect
        case .timeAttack: runEnds = false
        }
        effects.append(.answerGraded(AnswerOutcome(
            player: player, question: id, answer: answer, confidence: confidence, isCorrect: isCorrect,
            correctAnswer: kind.correctAnswer(to: question), secondsSpent: seconds,
            points: points, score: racer.score, finishedRun: runEnds, retry: false,
            prompt: asked, keypad: keypad, askedAfter: timeline.asked, answeredAfter: timeline.answered,
            isReviewable: kind.isReviewable(answer)
        )))
        if runEnds {
            racer.status = .completed(at: now)
            running.racers[r] = racer
            effects.append(.playerFinished(result(for: racer, in: running)))
        } else {
            racer.questionIndex += 1
            racer.questionSentAt = now
            let next = self.question(at: racer.questionIndex)
            racer.attempt = kind.attempt(for: next)
            racer.remaining = kind.remaining(in: next, attempt: racer.attempt)
            running.racers[r] = racer
            effects.append(.sendQuestion(delivery(for: racer)))
        }
        state = .running(running)
        effects.append(.progress(progress(of: running)))
        finishIfEveryoneDone(at: now, into: &effects)
    }

    /// Time Attack's end: everyone still playing completes at `endsAt`.
    mutating func endTimeAttack(at endsAt: RaceInstant, into effects: inout [RaceEffect<Kind>]) {
        guard case .running(var running) = state else { return }
        for index in running.racers.indices where running.racers[index].isPlaying {
            running.racers[index].status = .completed(at: endsAt)
            effects.append(.playerFinished(result(for: running.racers[index], in: running)))
        }
        state = .running(running)
        finishIfEveryoneDone(at: endsAt, into: &effects)
    }

    /// Ends the race once no racer is playing: Normal and Survival when the
    /// last run ends, any mode when every racer has left.
    mutating func finishIfEveryoneDone(at now: RaceInstant, into effects: inout [RaceEffect<Kind>]) {
        guard case .running(let running) = state, !running.racers.contains(where: \.isPlaying) else { return }
        let standings = Standings(
            round: round, mode: configuration.mode,
            results: running.racers.map { result(for: $0, in: running) }, order: kind.boardOrder
        )
        state = .finished(standings)
        effects.append(.raceFinished(standings))
        effects.append(.roomUpdated(snapshot))
    }

    mutating func rematch(by id: PlayerID, seed newSeed: UInt64, into effects: inout [RaceEffect<Kind>]) {
        guard members.contains(where: { $0.id == id }) else {
            effects.append(.rejected(id, rejectionForNonMember))
            return
        }
        switch state {
        case .finished:
            break
        case .lobby, .countdown, .running:
            effects.append(.rejected(id, .raceNotFinished))
            return
        case .disposed:
            effects.append(.rejected(id, .roomClosed))
            return
        }
        guard host == id else {
            effects.append(.rejected(id, .notHost))
            return
        }
        beginNextRound(seed: newSeed, into: &effects)
    }

    /// Back to the lobby for the next round, with a new seed: nobody is
    /// ready, spectators take free seats (a rematch, a lesson's next round).
    mutating func beginNextRound(seed newSeed: UInt64, into effects: inout [RaceEffect<Kind>]) {
        round += 1
        seed = newSeed
        state = .lobby
        for index in members.indices { members[index].isReady = false }
        fillSeats()
        effects.append(.roomUpdated(snapshot))
    }
}

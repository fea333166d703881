import MindPadJSON
import MindPadRecognition
import MindPadRules

/// Everything the server sends. Times are relative (`…_in_ms`, `…_ms`): the
/// client's clock is never trusted and the server's monotonic origin means
/// nothing to it. Nothing here carries a seed or an answer before it is
/// graded. A kind's prompts and answers arrive already encoded (`JSON`),
/// so nothing here knows any game.
enum ServerMessage {
    static func welcome(limits: [(String, JSON?)]) -> OutgoingMessage {
        OutgoingMessage("welcome", [("protocol", .string("mindpad.v1")), ("limits", .object(omittingNils: limits))])
    }

    /// `instance`: this instance's id in a cluster (nil, left out, for a
    /// single instance): the client reconnects to it while in a room.
    static func identified(player: PlayerID, name: PlayerName, token: String?, instance: String? = nil) -> OutgoingMessage {
        OutgoingMessage("identified", [
            ("player_id", .string(player.rawValue)), ("name", .string(name.display)),
            ("token", token.map(JSON.string)), ("new", .bool(token != nil)),
            ("instance", instance.map(JSON.string)),
        ])
    }

    /// Connect to `/ws?instance=<instance>` and send the same `join_room`
    /// again (the room is open there); with both null, connect to plain
    /// `/ws` and repeat the request (this instance is draining).
    static func moved(room: String?, instance: String?) -> OutgoingMessage {
        OutgoingMessage("moved", [("room", room.map(JSON.string) ?? .null), ("instance", instance.map(JSON.string) ?? .null)])
    }

    static func error(_ e: ProtocolError) -> OutgoingMessage {
        OutgoingMessage("error", [("code", .string(e.code.rawValue)), ("message", .string(e.message)),
                                  ("request", e.request.map(JSON.string))], errorCode: e.code)
    }

    /// `race`: the round's race id while it runs and once it has run (also
    /// in its standings), so a member who comes back or joins mid-race
    /// knows it before `finished`; nil in the lobby and the countdown.
    static func room(code: String, you: PlayerID, snapshot: RoomSnapshot, progress: RaceProgress?,
                     standings: Standings?, race: String?, now: RaceInstant) -> OutgoingMessage {
        OutgoingMessage("room", [
            ("code", .string(code)), ("you", .string(you.rawValue)), ("room", room(snapshot, now: now)),
            ("race", race.map(JSON.string)),
            ("progress", progress.map(Self.progressBody)), ("standings", standings.map { standingsBody($0, race: race) }),
        ])
    }

    static func roomUpdated(code: String, snapshot: RoomSnapshot, now: RaceInstant) -> OutgoingMessage {
        OutgoingMessage("room_updated", [("code", .string(code)), ("room", room(snapshot, now: now))])
    }

    static func leftRoom(code: String) -> OutgoingMessage {
        OutgoingMessage("left_room", [("code", .string(code))])
    }

    static func countdown(round: Int, startsAt: RaceInstant, now: RaceInstant) -> OutgoingMessage {
        OutgoingMessage("countdown", [("round", .int(round)), ("starts_in_ms", .int(Int(max(0, (startsAt - now).milliseconds))))])
    }

    /// `race`: the round's id (`RaceID`), for its replay.
    static func raceStarted(round: Int, mode: GameMode, race: String, endsAt: RaceInstant?, now: RaceInstant) -> OutgoingMessage {
        OutgoingMessage("race_started", [
            ("round", .int(round)), ("mode", .string(mode.rawValue)), ("race", .string(race)),
            ("ends_in_ms", endsAt.map { .int(Int(max(0, ($0 - now).milliseconds))) }),
        ])
    }

    /// `prompt`: the kind's `Prompt`, encoded.
    static func question(_ id: QuestionID, prompt: JSON) -> OutgoingMessage {
        OutgoingMessage("question", [("question", .string(id.wire)), ("prompt", prompt)])
    }

    /// An unsure reading (not a digit, as far as the recognizer can tell) is
    /// `"digit":null,"unsure":true`: the client shows "?", not a wrong digit.
    static func guess(question: QuestionID, recognition: Recognition, points: Int) -> OutgoingMessage {
        OutgoingMessage("guess", [
            ("question", .string(question.wire)), ("digit", recognition.unsure ? .null : .int(recognition.digit)),
            ("unsure", recognition.unsure ? .bool(true) : nil),
            ("confidence", .double(rounded(Double(recognition.confidence)))), ("points", .int(points)),
        ])
    }

    /// A `drawn_number` game's live reading: the number, the least sure
    /// digit's confidence, and each digit with its box in the coordinates of
    /// the strokes the client sent. A digit read with less confidence than
    /// `unsureBelow` is `"digit":null` and `?` in `number`.
    static func guess(question: QuestionID, number: NumberReading, unsureBelow: Float, points: Int) -> OutgoingMessage {
        let unsure = number.digits.map { $0.confidence < unsureBelow }
        var digits = number.digitsJSON
        var text = number.number
        if unsure.contains(true), case .array(let items) = digits {
            digits = .array(zip(items, unsure).map { item, unsure in
                guard unsure, case .object(let fields) = item else { return item }
                return .object(fields.map { $0.0 == "digit" ? ($0.0, .null) : $0 })
            })
            text = String(zip(text, unsure).map { $1 ? "?" : $0 })
        }
        return OutgoingMessage("guess", [
            ("question", .string(question.wire)), ("number", .string(text)),
            ("confidence", .double(rounded(Double(number.confidence)))),
            ("digits", digits),
            ("points", .int(points)),
        ])
    }

    /// `answer` and `expected`: the kind's `Answer`, encoded. `retry`: the
    /// question stays open (a wrong guess of the path finder's grid), so
    /// there is no `expected` and `"retry": true` is said.
    static func graded(question: QuestionID, answer: JSON, expected: JSON?, confidence: Double?, correct: Bool,
                       points: Int, score: Int, runOver: Bool, retry: Bool = false) -> OutgoingMessage {
        OutgoingMessage("graded", [
            ("question", .string(question.wire)), ("answer", answer),
            ("confidence", confidence.map { .double(rounded($0)) }),
            ("correct", .bool(correct)), ("expected", expected),
            ("points", .int(points)), ("score", .int(score)), ("run_over", .bool(runOver)),
            ("retry", retry ? .bool(true) : nil),
        ])
    }

    static func progress(_ p: RaceProgress) -> OutgoingMessage {
        OutgoingMessage("progress", progressFields(p))
    }

    /// `answers`: the racer's graded answers in order (`AnswerLog.Entry.json`).
    static func finished(_ r: PlayerResult, race: String?, answers: [JSON]) -> OutgoingMessage {
        OutgoingMessage("finished", [("result", .object(resultFields(r, race: race) + [("answers", .array(answers))]))])
    }

    static func standings(_ s: Standings, race: String?) -> OutgoingMessage {
        OutgoingMessage("standings", standingsFields(s, race: race))
    }

    /// To spectators: the question the leading racer is on
    /// (`RaceStateMachine.leadersQuestion`).
    static func spectating(_ question: QuestionID, prompt: JSON, racer: PlayerID) -> OutgoingMessage {
        OutgoingMessage("spectating", [
            ("round", .int(question.round)), ("question_index", .int(question.index)), ("prompt", prompt),
            ("racer", .string(racer.rawValue)),
        ])
    }

    static func resultSaved(game: String, round: Int, mode: GameMode, personalBest: Bool?, previousBest: Int?,
                            journaled: Bool) -> OutgoingMessage {
        OutgoingMessage("result_saved", [
            ("round", .int(round)), ("mode", .string(mode.rawValue)), ("game", .string(game)),
            ("stored", .string(journaled ? "journal" : "database")),
            ("personal_best", personalBest.map(JSON.bool)), ("previous_best", previousBest.map(JSON.int)),
        ])
    }

    // MARK: Bodies

    /// Confidences go out with three decimals.
    static func rounded(_ x: Double) -> Double { NumberReading.rounded(x) }

    static func room(_ s: RoomSnapshot, now: RaceInstant) -> JSON {
        var fields: [(String, JSON)] = [("game", .string(s.kind)), ("round", .int(s.round)), ("mode", .string(s.mode.rawValue))]
        if let level = s.level { fields.append(("level", .int(level))) }
        switch s.phase {
        case .lobby: fields.append(("phase", .string("lobby")))
        case .countdown(let startsAt):
            fields.append(("phase", .string("countdown")))
            fields.append(("starts_in_ms", .int(Int(max(0, (startsAt - now).milliseconds)))))
        case .running(_, let endsAt):
            fields.append(("phase", .string("running")))
            if let endsAt { fields.append(("ends_in_ms", .int(Int(max(0, (endsAt - now).milliseconds))))) }
        case .finished: fields.append(("phase", .string("finished")))
        case .disposed: fields.append(("phase", .string("closed")))
        }
        fields.append(("host", s.host.map { .string($0.rawValue) } ?? .null))
        fields.append(("max_players", .int(s.maxPlayers)))
        fields.append(("members", .array(s.members.map { m in
            .object([
                ("player_id", .string(m.id.rawValue)), ("name", .string(m.name.display)),
                ("role", .string(m.role.rawValue)), ("ready", .bool(m.isReady)),
                ("connected", .bool(m.isConnected)), ("host", .bool(m.isHost)),
            ])
        })))
        return .object(fields)
    }

    static func progressFields(_ p: RaceProgress) -> [(String, JSON?)] {
        [
            ("round", .int(p.round)), ("mode", .string(p.mode.rawValue)),
            ("racers", .array(p.racers.map { r in
                .object(omittingNils: [
                    ("player_id", .string(r.player.rawValue)), ("name", .string(r.name.display)),
                    ("question_index", .int(r.questionIndex)), ("score", .int(r.score)),
                    ("correct", .int(r.correct)), ("wrong", .int(r.wrong)), ("status", .string(r.status.rawValue)),
                    ("remaining", r.remaining.map(JSON.int)),
                ])
            })),
        ]
    }

    static func progressBody(_ p: RaceProgress) -> JSON { .object(omittingNils: progressFields(p)) }

    static func standingsFields(_ s: Standings, race: String?) -> [(String, JSON?)] {
        [
            ("round", .int(s.round)), ("mode", .string(s.mode.rawValue)), ("race", race.map(JSON.string)),
            ("entries", .array(s.entries.map { e in
                .object([("rank", .int(e.rank))] + resultFields(e.result, race: race))
            })),
        ]
    }

    static func standingsBody(_ s: Standings, race: String?) -> JSON { .object(omittingNils: standingsFields(s, race: race)) }

    static func resultFields(_ r: PlayerResult, race: String?) -> [(String, JSON)] {
        (race.map { [("race", JSON.string($0))] } ?? []) + [
            ("player_id", .string(r.player.rawValue)), ("name", .string(r.name.display)),
            ("score", .int(r.score)), ("correct", .int(r.correct)), ("wrong", .int(r.wrong)),
            ("answered", .int(r.answered)), ("duration_ms", .int(Int(r.duration.milliseconds))),
            ("score_reached_ms", .int(Int(r.scoreReachedAfter.milliseconds))), ("completed", .bool(r.completed)),
            ("keypad_answers", .int(r.keypadAnswers)),
        ] + detailFields(r)
    }

    /// What the kind adds to a result (`PlayerResult.detail`).
    static func detailFields(_ r: PlayerResult) -> [(String, JSON)] {
        switch r.detail {
        case nil:
            return []
        case .path(let p):
            let ms = { (d: RaceDuration?) in d.map { JSON.int(Int($0.milliseconds)) } ?? .null }
            return [("path", .object([
                ("rows", .int(p.rows)), ("columns", .int(p.columns)),
                ("goal", .object([("row", .int(p.goal.row)), ("column", .int(p.goal.column))])),
                ("steps", .int(p.steps)), ("best_steps", .int(p.bestSteps)), ("tries", .int(p.tries)),
                ("grid_shown_ms", ms(p.gridShownAfter)), ("goal_reached_ms", ms(p.goalReachedAfter)),
                // The seed's rank value: the score is it × 1000.
                ("rank_value", p.goalReachedAfter == nil ? .null : .double(Double(r.score) / 1000)),
            ]))]
        }
    }

    static func result(_ r: PlayerResult, race: String?) -> JSON { .object(resultFields(r, race: race)) }
}

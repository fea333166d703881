import MindPadRecognition
import MindPadRules

/// Everything the server sends, as wire JSON. Times are relative
/// (`…_in_ms`, `…_ms`): the client's clock is never trusted and the server's
/// monotonic origin means nothing to it. Nothing here carries a seed or an
/// answer before it is graded.
enum ServerMessage {
    static func welcome(limits: [(String, WireJSON?)]) -> WireJSON {
        .object("welcome", [("protocol", .string("mindpad.v1")), ("limits", .object(limits.compactMap { k, v in v.map { (k, $0) } }))])
    }

    static func identified(player: PlayerID, name: PlayerName, token: String?) -> WireJSON {
        .object("identified", [
            ("player_id", .string(player.rawValue)), ("name", .string(name.display)),
            ("token", token.map(WireJSON.string)), ("new", .bool(token != nil)),
        ])
    }

    static func error(_ e: ProtocolError) -> WireJSON {
        ServerMetrics.shared.error(e.code, transport: "ws")
        return .object("error", [("code", .string(e.code)), ("message", .string(e.message)), ("request", e.request.map(WireJSON.string))])
    }

    static func room(code: String, you: PlayerID, snapshot: RoomSnapshot, progress: RaceProgress?,
                     standings: Standings?, now: RaceInstant) -> WireJSON {
        .object("room", [
            ("code", .string(code)), ("you", .string(you.rawValue)), ("room", room(snapshot, now: now)),
            ("progress", progress.map(Self.progressBody)), ("standings", standings.map(Self.standingsBody)),
        ])
    }

    static func roomUpdated(code: String, snapshot: RoomSnapshot, now: RaceInstant) -> WireJSON {
        .object("room_updated", [("code", .string(code)), ("room", room(snapshot, now: now))])
    }

    static func leftRoom(code: String) -> WireJSON {
        .object("left_room", [("code", .string(code))])
    }

    static func countdown(round: Int, startsAt: RaceInstant, now: RaceInstant) -> WireJSON {
        .object("countdown", [("round", .int(round)), ("starts_in_ms", .int(Int(max(0, (startsAt - now).milliseconds))))])
    }

    static func raceStarted(round: Int, mode: GameMode, endsAt: RaceInstant?, now: RaceInstant) -> WireJSON {
        .object("race_started", [
            ("round", .int(round)), ("mode", .string(mode.rawValue)),
            ("ends_in_ms", endsAt.map { .int(Int(max(0, ($0 - now).milliseconds))) }),
        ])
    }

    static func question(_ delivery: QuestionDelivery<MindPadArithmetic>) -> WireJSON {
        let p = delivery.prompt
        return .object("question", [
            ("question", .string(delivery.id.wire)),
            ("prompt", .object([
                ("text", .string(p.text)), ("ascii_text", .string(p.asciiText)),
                ("lhs", .int(p.lhs)), ("operation", .string(p.operation.rawValue)), ("rhs", .int(p.rhs)),
                ("masked_result", .string(p.maskedResult)), ("hidden_position", .int(p.hiddenPosition)),
                ("difficulty", .int(p.difficulty)),
            ])),
        ])
    }

    static func guess(question: QuestionID, recognition: Recognition, points: Int) -> WireJSON {
        .object("guess", [
            ("question", .string(question.wire)), ("digit", .int(recognition.digit)),
            ("confidence", .double((Double(recognition.confidence) * 1000).rounded() / 1000)), ("points", .int(points)),
        ])
    }

    static func graded(_ o: AnswerOutcome<MindPadArithmetic>, confidence: Float?) -> WireJSON {
        .object("graded", [
            ("question", .string(o.question.wire)), ("answer", .int(o.answer.value)),
            ("confidence", confidence.map { .double((Double($0) * 1000).rounded() / 1000) }),
            ("correct", .bool(o.isCorrect)), ("expected", .int(o.correctAnswer.value)),
            ("points", .int(o.points)), ("score", .int(o.score)), ("run_over", .bool(o.finishedRun)),
        ])
    }

    static func progress(_ p: RaceProgress) -> WireJSON {
        guard case .object(let fields) = progressBody(p) else { return .null }
        return .object([("type", .string("progress"))] + fields)
    }

    static func finished(_ r: PlayerResult) -> WireJSON {
        .object("finished", [("result", result(r))])
    }

    static func standings(_ s: Standings) -> WireJSON {
        guard case .object(let fields) = standingsBody(s) else { return .null }
        return .object([("type", .string("standings"))] + fields)
    }

    static func resultSaved(round: Int, mode: GameMode, personalBest: Bool?, previousBest: Int?, journaled: Bool) -> WireJSON {
        .object("result_saved", [
            ("round", .int(round)), ("mode", .string(mode.rawValue)),
            ("stored", .string(journaled ? "journal" : "database")),
            ("personal_best", personalBest.map(WireJSON.bool)), ("previous_best", previousBest.map(WireJSON.int)),
        ])
    }

    // MARK: Bodies

    static func room(_ s: RoomSnapshot, now: RaceInstant) -> WireJSON {
        var fields: [(String, WireJSON)] = [("round", .int(s.round)), ("mode", .string(s.mode.rawValue))]
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

    static func progressBody(_ p: RaceProgress) -> WireJSON {
        .object([
            ("round", .int(p.round)), ("mode", .string(p.mode.rawValue)),
            ("racers", .array(p.racers.map { r in
                .object([
                    ("player_id", .string(r.player.rawValue)), ("name", .string(r.name.display)),
                    ("question_index", .int(r.questionIndex)), ("score", .int(r.score)),
                    ("correct", .int(r.correct)), ("wrong", .int(r.wrong)), ("status", .string(r.status.rawValue)),
                ])
            })),
        ])
    }

    static func standingsBody(_ s: Standings) -> WireJSON {
        .object([
            ("round", .int(s.round)), ("mode", .string(s.mode.rawValue)),
            ("entries", .array(s.entries.map { e in
                guard case .object(let fields) = result(e.result) else { return .null }
                return .object([("rank", .int(e.rank))] + fields)
            })),
        ])
    }

    static func result(_ r: PlayerResult) -> WireJSON {
        .object([
            ("player_id", .string(r.player.rawValue)), ("name", .string(r.name.display)),
            ("score", .int(r.score)), ("correct", .int(r.correct)), ("wrong", .int(r.wrong)),
            ("answered", .int(r.answered)), ("duration_ms", .int(Int(r.duration.milliseconds))),
            ("score_reached_ms", .int(Int(r.scoreReachedAfter.milliseconds))), ("completed", .bool(r.completed)),
        ])
    }
}

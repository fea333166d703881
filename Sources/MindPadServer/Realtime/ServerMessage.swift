import MindPadJSON
import MindPadRecognition
import MindPadRules

/// Everything the server sends. Times are relative (`…_in_ms`, `…_ms`): the
/// client's clock is never trusted and the server's monotonic origin means
/// nothing to it. Nothing here carries a seed or an answer before it is
/// graded. A kind's prompts and answers arrive already encoded (`JSON`),
/// so nothing here knows any game. Each message is written member by member
/// into its bytes (`JSONWriter`), in the order `docs/protocol.md` shows.
enum ServerMessage {
    static func welcome(limits: [(String, JSON?)]) -> OutgoingMessage {
        OutgoingMessage("welcome") { out in
            out.field("protocol", "mindpad.v1")
            out.field("limits", .object(omittingNils: limits))
        }
    }

    /// `instance`: this instance's id in a cluster (nil, left out, for a
    /// single instance): the client reconnects to it while in a room.
    static func identified(player: PlayerID, name: PlayerName, token: String?, instance: String? = nil,
                           hand: PlayerHand? = nil, learnsHand: Bool = false) -> OutgoingMessage {
        OutgoingMessage("identified") { out in
            out.field("player_id", player.rawValue)
            out.field("name", name.display)
            out.field("token", token)
            out.field("new", token != nil)
            out.field("instance", instance)
            if learnsHand { readingFields(&out, learns: hand != nil, learned: hand?.learned ?? 0) }
        }
    }

    /// The player's reading settings, after `reading` (and in `identified`):
    /// whether the reader learns their hand and from how many drawings it has.
    static func reading(learns: Bool, learned: Int) -> OutgoingMessage {
        OutgoingMessage("reading") { out in readingFields(&out, learns: learns, learned: learned) }
    }

    private static func readingFields(_ out: inout JSONWriter, learns: Bool, learned: Int) {
        out.field("learns_hand", learns)
        out.field("hand_learned", learned)
    }

    /// Connect to `/ws?instance=<instance>` and send the same `join_room`
    /// again (the room is open there); with both null, connect to plain
    /// `/ws` and repeat the request (this instance is draining).
    static func moved(room: String?, instance: String?) -> OutgoingMessage {
        OutgoingMessage("moved") { out in
            out.field("room", orNull: room)
            out.field("instance", orNull: instance)
        }
    }

    static func error(_ e: ProtocolError) -> OutgoingMessage {
        OutgoingMessage("error", errorCode: e.code) { out in
            out.field("code", e.code.rawValue)
            out.field("message", e.message)
            out.field("request", e.request)
        }
    }

    /// `race`: the round's race id while it runs and once it has run (also
    /// in its standings), so a member who comes back or joins mid-race
    /// knows it before `finished`; nil in the lobby and the countdown.
    /// `you` nil: the teacher conducting a lesson's room, who is no member.
    /// `lesson`: the class's name in a lesson's room (its pupils show that
    /// their teacher sees their pad).
    static func room(code: String, you: PlayerID?, snapshot: RoomSnapshot, progress: RaceProgress?,
                     standings: Standings?, race: String?, now: RaceInstant, lesson: String? = nil) -> OutgoingMessage {
        OutgoingMessage("room") { out in
            out.field("code", code)
            out.field("you", orNull: you?.rawValue)
            out.key("room")
            room(snapshot, now: now, lesson: lesson, into: &out)
            out.field("race", race)
            if let progress {
                out.key("progress")
                out.object { progressMembers(progress, into: &$0) }
            }
            if let standings {
                out.key("standings")
                out.object { standingsMembers(standings, race: race, into: &$0) }
            }
        }
    }

    static func roomUpdated(code: String, snapshot: RoomSnapshot, now: RaceInstant, lesson: String? = nil) -> OutgoingMessage {
        OutgoingMessage("room_updated") { out in
            out.field("code", code)
            out.key("room")
            room(snapshot, now: now, lesson: lesson, into: &out)
        }
    }

    static func leftRoom(code: String) -> OutgoingMessage {
        OutgoingMessage("left_room") { $0.field("code", code) }
    }

    static func countdown(round: Int, startsAt: RaceInstant, now: RaceInstant) -> OutgoingMessage {
        OutgoingMessage("countdown") { out in
            out.field("round", round)
            out.field("starts_in_ms", msUntil(startsAt, now: now))
        }
    }

    /// `race`: the round's id (`RaceID`), for its replay.
    static func raceStarted(round: Int, mode: GameMode, race: String, endsAt: RaceInstant?, now: RaceInstant) -> OutgoingMessage {
        OutgoingMessage("race_started") { out in
            out.field("round", round)
            out.field("mode", mode.rawValue)
            out.field("race", race)
            out.field("ends_in_ms", endsAt.map { msUntil($0, now: now) })
        }
    }

    /// `prompt`: the kind's `Prompt`, encoded.
    static func question(_ id: QuestionID, prompt: JSON) -> OutgoingMessage {
        OutgoingMessage("question") { out in
            out.field("question", id.wire)
            out.field("prompt", prompt)
        }
    }

    /// An unsure reading (not a digit, as far as the recognizer can tell) is
    /// `"digit":null,"unsure":true`: the client shows "?", not a wrong digit.
    /// A reading that would be offered as a choice carries it:
    /// `"digit":1,"choices":[1,7]` (the client shows "1 or 7?").
    static func guess(question: QuestionID, recognition: Recognition, points: Int) -> OutgoingMessage {
        OutgoingMessage("guess") { out in
            out.field("question", question.wire)
            out.key("digit")
            if recognition.unsure { out.null() } else { out.int(recognition.digit) }
            if recognition.unsure { out.field("unsure", true) }
            if !recognition.choices.isEmpty { out.field("choices", .array(recognition.choices.map(JSON.int))) }
            out.field("confidence", rounded(Double(recognition.confidence)))
            out.field("points", points)
        }
    }

    /// A `drawn_number` game's live reading: the number, the least sure
    /// digit's confidence, and each digit with its box in the coordinates of
    /// the strokes the client sent. An unsure digit (`DigitReading.unsure`)
    /// is `"digit":null` and `?` in `number`; a digit that would be offered
    /// as a choice keeps its likeliest `digit`, adds its `choices`, and is
    /// `?` in `number` too.
    static func guess(question: QuestionID, number: NumberReading, points: Int) -> OutgoingMessage {
        let unsure = number.digits.map(\.unsure)
        let open = number.digits.map { $0.unsure || !$0.choices.isEmpty }
        var digits = number.digitsJSON
        var text = number.number
        if unsure.contains(true), case .array(let items) = digits {
            digits = .array(zip(items, unsure).map { item, unsure in
                guard unsure, case .object(let fields) = item else { return item }
                return .object(fields.map { $0.0 == "digit" ? ($0.0, .null) : $0 })
            })
        }
        if open.contains(true) {
            text = String(zip(text, open).map { $1 ? "?" : $0 })
        }
        return OutgoingMessage("guess") { out in
            out.field("question", question.wire)
            out.field("number", text)
            out.field("confidence", rounded(Double(number.confidence)))
            out.field("digits", digits)
            out.field("points", points)
        }
    }

    /// `answer` and `expected`: the kind's `Answer`, encoded. `retry`: the
    /// question stays open (a wrong guess of the path finder's grid), so
    /// there is no `expected` and `"retry": true` is said.
    static func graded(question: QuestionID, answer: JSON, expected: JSON?, confidence: Double?, correct: Bool,
                       points: Int, score: Int, runOver: Bool, retry: Bool = false) -> OutgoingMessage {
        OutgoingMessage("graded") { out in
            out.field("question", question.wire)
            out.field("answer", answer)
            out.field("confidence", confidence.map(rounded))
            out.field("correct", correct)
            out.field("expected", expected)
            out.field("points", points)
            out.field("score", score)
            out.field("run_over", runOver)
            if retry { out.field("retry", true) }
        }
    }

    static func progress(_ p: RaceProgress) -> OutgoingMessage {
        OutgoingMessage("progress") { progressMembers(p, into: &$0) }
    }

    /// `answers`: the racer's graded answers in order (`AnswerLog.Entry.json`).
    static func finished(_ r: PlayerResult, race: String?, answers: [JSON]) -> OutgoingMessage {
        OutgoingMessage("finished") { out in
            out.key("result")
            out.object { out in
                resultMembers(r, race: race, into: &out)
                out.key("answers")
                out.array(answers) { $0.value($1) }
            }
        }
    }

    static func standings(_ s: Standings, race: String?) -> OutgoingMessage {
        OutgoingMessage("standings") { standingsMembers(s, race: race, into: &$0) }
    }

    /// To spectators: the question the leading racer is on
    /// (`RaceStateMachine.leadersQuestion`).
    static func spectating(_ question: QuestionID, prompt: JSON, racer: PlayerID) -> OutgoingMessage {
        OutgoingMessage("spectating") { out in
            out.field("round", question.round)
            out.field("question_index", question.index)
            out.field("prompt", prompt)
            out.field("racer", racer.rawValue)
        }
    }

    static func resultSaved(game: String, round: Int, mode: GameMode, personalBest: Bool?, previousBest: Int?,
                            journaled: Bool) -> OutgoingMessage {
        OutgoingMessage("result_saved") { out in
            out.field("round", round)
            out.field("mode", mode.rawValue)
            out.field("game", game)
            out.field("stored", journaled ? "journal" : "database")
            out.field("personal_best", personalBest)
            out.field("previous_best", previousBest)
        }
    }

    // MARK: Bodies

    /// Confidences go out with three decimals.
    static func rounded(_ x: Double) -> Double { NumberReading.rounded(x) }

    /// Milliseconds from `now` to `instant`, never negative.
    static func msUntil(_ instant: RaceInstant, now: RaceInstant) -> Int {
        Int(max(0, (instant - now).milliseconds))
    }

    static func room(_ s: RoomSnapshot, now: RaceInstant, lesson: String? = nil, into out: inout JSONWriter) {
        out.beginObject()
        out.field("game", s.kind)
        // A lesson's room: its class, and whether the teacher paused it
        // (the clock of a paused race stands still: `ends_in_ms` as at the pause).
        if let lesson { out.field("lesson", lesson) }
        if s.isPaused { out.field("paused", true) }
        out.field("round", s.round)
        out.field("mode", s.mode.rawValue)
        out.field("level", s.level)
        switch s.phase {
        case .lobby: out.field("phase", "lobby")
        case .countdown(let startsAt):
            out.field("phase", "countdown")
            out.field("starts_in_ms", msUntil(startsAt, now: now))
        case .running(_, let endsAt):
            out.field("phase", "running")
            out.field("ends_in_ms", endsAt.map { msUntil($0, now: now) })
        case .finished: out.field("phase", "finished")
        case .disposed: out.field("phase", "closed")
        }
        out.field("host", orNull: s.host?.rawValue)
        out.field("max_players", s.maxPlayers)
        out.key("members")
        out.array(s.members) { out, m in
            out.object { out in
                out.field("player_id", m.id.rawValue)
                out.field("name", m.name.display)
                out.field("role", m.role.rawValue)
                out.field("ready", m.isReady)
                out.field("connected", m.isConnected)
                out.field("host", m.isHost)
            }
        }
        out.endObject()
    }

    static func progressMembers(_ p: RaceProgress, into out: inout JSONWriter) {
        out.field("round", p.round)
        out.field("mode", p.mode.rawValue)
        out.key("racers")
        out.array(p.racers) { out, r in
            out.object { out in
                out.field("player_id", r.player.rawValue)
                out.field("name", r.name.display)
                out.field("question_index", r.questionIndex)
                out.field("score", r.score)
                out.field("correct", r.correct)
                out.field("wrong", r.wrong)
                out.field("status", r.status.rawValue)
                out.field("remaining", r.remaining)
            }
        }
    }

    static func standingsMembers(_ s: Standings, race: String?, into out: inout JSONWriter) {
        out.field("round", s.round)
        out.field("mode", s.mode.rawValue)
        out.field("race", race)
        out.key("entries")
        out.array(s.entries) { out, e in
            out.object { out in
                out.field("rank", e.rank)
                resultMembers(e.result, race: race, into: &out)
            }
        }
    }

    static func resultMembers(_ r: PlayerResult, race: String?, into out: inout JSONWriter) {
        out.field("race", race)
        out.field("player_id", r.player.rawValue)
        out.field("name", r.name.display)
        out.field("score", r.score)
        out.field("correct", r.correct)
        out.field("wrong", r.wrong)
        out.field("answered", r.answered)
        out.field("duration_ms", Int(r.duration.milliseconds))
        out.field("score_reached_ms", Int(r.scoreReachedAfter.milliseconds))
        out.field("completed", r.completed)
        out.field("keypad_answers", r.keypadAnswers)
        detailMembers(r, into: &out)
    }

    /// What the kind adds to a result (`PlayerResult.detail`): its
    /// members, as the kind wrote them.
    static func detailMembers(_ r: PlayerResult, into out: inout JSONWriter) {
        guard case .object(let members)? = r.detail?.members else { return }
        for (key, value) in members {
            out.key(key)
            out.value(value)
        }
    }
}

import MindPadHTTP
import MindPadJSON
import MindPadRules
import MindPadStorage

/// JSON shapes of a race's replay (`GET /api/races/{race}`, contract §5 of
/// issue 19) and of the operator's suspicious races. Built as `JSON`
/// values: the stored prompts, answers and strokes are game JSON passed on
/// as they were stored, never decoded into types and written again.
enum ReplayJSON {
    /// `[A-Za-z0-9_-]{1,64}`: what a race id may look like in a path
    /// (`/api/races/{race}`, `/replay/<race>`). Ids made since migration
    /// 0010 are 12 of `[a-z0-9]`; older ones are `<room>-<round>`.
    /// The same rule as a client page's id, so `/replay/<race>` and
    /// `/api/races/{race}` take the same ids.
    static func isRaceID(_ text: String) -> Bool { StaticFiles.isPageID(text) }

    /// The replay: the race's runs in its game's board order (score, then
    /// time, then who finished first; a game this server no longer hosts
    /// as higher first). Where less is better, a run left unfinished
    /// (scored 0) comes after every completed one, as in the standings.
    static func race(_ id: String, _ runs: [RaceRun], game info: GameInfo?) throws -> JSON {
        let lowerFirst = info?.boardOrder == .lowerFirst
        let ordered = runs.sorted { a, b in
            let (x, y) = lowerFirst ? (a.score, b.score) : (b.score, a.score)
            let (p, q) = lowerFirst ? (completed(a, game: info) ? 0 : 1, completed(b, game: info) ? 0 : 1) : (0, 0)
            return (p, x, a.durationMs, a.finishedAtMs, a.name, a.resultID) < (q, y, b.durationMs, b.finishedAtMs, b.name, b.resultID)
        }
        let first = ordered[0]
        return .object([
            ("race", .string(id)), ("game", .string(first.game)), ("mode", .string(first.mode)),
            ("room", first.roomID.map(JSON.string) ?? .null),
            ("racers", .array(try ordered.map { try racer($0, game: info) })),
        ])
    }

    private static func racer(_ run: RaceRun, game info: GameInfo?) throws -> JSON {
        let racer = JSON.object(omittingNils: [
            ("name", .string(run.name)), ("score", .int(run.score)), ("correct", .int(run.correct)),
            ("answered", .int(run.answered)), ("duration_ms", .int(run.durationMs)),
            ("finished_at", .string(ScoresJSON.timestamp(run.finishedAtMs))),
            ("completed", .bool(completed(run, game: info))),
            ("answers", .array(try run.answers.map(answer))),
        ])
        return try racer.merging(detail(run))
    }

    /// What the game's kind added to the run (`ResultDetail.replayed`): its
    /// stored members with the replay part over them (while kept), added to
    /// the racer's members. An empty object when the kind added nothing.
    static func detail(_ run: RaceRun) throws -> JSON {
        let members = try run.detail.map { try JSON.parse($0) } ?? .object([])
        guard let replay = try run.replayDetail.map({ try JSON.parse($0) }) else { return members }
        return members.merging(replay)
    }

    /// Whether the run ended by the rules rather than by the racer
    /// leaving: as stored (migration 0011; 0018 stored it for the path
    /// finder's older rounds), or for an older result as far as what it
    /// holds tells: a Survival run that ended on a miss; a Normal run that
    /// answered the game's every question; a Time Attack run (which lasts
    /// the race's length either way) counts as completed.
    static func completed(_ run: RaceRun, game info: GameInfo?) -> Bool {
        if let stored = run.completed { return stored }
        switch GameMode(rawValue: run.mode) {
        case .survival: return run.answered > run.correct
        case .normal: return run.answered >= (info?.normalQuestionCount ?? 0)
        case .timeAttack, nil: return true
        }
    }

    /// One answer as `finished.result.answers` has it (contract §2), with
    /// its `strokes` (null when none were kept); `choice` when it was
    /// picked among readings offered.
    static func answer(_ a: StoredAnswer) throws -> JSON {
        .object(omittingNils: [
            ("seq", .int(a.seq)), ("question", .string(a.questionID)), ("prompt", try JSON.parse(a.prompt)),
            ("answer", try JSON.parse(a.answer)), ("expected", try a.expected.map { try JSON.parse($0) }),
            ("correct", .bool(a.correct)), ("points", .int(a.points)), ("input", .string(a.input)),
            ("confidence", a.confidence.map(JSON.double)), ("choice", try a.choice.map { try JSON.parse($0) }),
            ("asked_ms", .int(a.askedMs)), ("answered_ms", .int(a.answeredMs)),
            ("strokes", try a.strokes.map { try JSON.parse($0) } ?? .null),
        ])
    }

    /// `{"races":[…]}`: the flagged runs grouped by race, in the order
    /// storage found them (newest race first), at most `limit` races.
    static func suspicious(_ runs: [SuspiciousRun], limit: Int, thresholds: SuspicionThresholds) -> JSON {
        var order: [String] = []
        var byRace: [String: (first: SuspiciousRun, flags: [JSON])] = [:]
        for run in runs {
            if byRace[run.raceID] == nil {
                guard order.count < limit else { continue }
                order.append(run.raceID)
                byRace[run.raceID] = (run, [])
            }
            byRace[run.raceID]?.flags.append(flag(run, thresholds))
        }
        return .object([("races", .array(order.compactMap { id in
            guard let (first, flags) = byRace[id] else { return nil }
            return .object([
                ("race", .string(id)), ("game", .string(first.game)), ("mode", .string(first.mode)),
                ("finished_at", .string(ScoresJSON.timestamp(first.raceFinishedAtMs))), ("replay", .string("/replay/" + id)),
                ("flags", .array(flags)),
            ])
        }))])
    }

    private static func flag(_ run: SuspiciousRun, _ t: SuspicionThresholds) -> JSON {
        let (reason, detail): (String, String)
        switch run.finding {
        case .fastCorrect(let count, let drawing, let answer):
            var parts: [String] = []
            if let drawing { parts.append("a drawing of \(drawing) ms (under \(t.drawingMs) ms)") }
            if let answer { parts.append("an answer \(answer) ms after its question (under \(t.answerMs) ms)") }
            reason = "fast_correct"
            detail = "\(count) correct \(count == 1 ? "answer" : "answers") too fast, the quickest: \(parts.joined(separator: ", "))"
        case .repeatedStrokes(let seqs):
            reason = "repeated_strokes"
            detail = "answers \(seqs.map { "#\($0 + 1)" }.joined(separator: ", ")) have identical strokes (seq \(seqs.map(String.init).joined(separator: ", ")))"
        }
        return .object([("name", .string(run.name)), ("reason", .string(reason)), ("detail", .string(detail))])
    }
}

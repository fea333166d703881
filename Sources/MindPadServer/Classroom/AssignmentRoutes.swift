import Foundation
import MindPadHTTP
import MindPadJSON
import MindPadRules
import MindPadStorage

/// Work a teacher sets for a class (issue 46, item 3; docs/openapi.yaml,
/// "classroom"): a game, mode and level, optionally due by a date, that its
/// pupils play solo when they like (`create_room` with `assignment`).
extension ClassroomRoutes {
    static let assignmentRoutes: [APIRoute] = [assignments, anAssignment, playerAssignments]

    /// `GET /api/classes/{id}/assignments` → the class's work, newest first,
    /// each with how many pupils played it; `POST` `{"game", "mode",
    /// "level"?, "due"?}` sets new work (201).
    static let assignments = APIRoute(pattern: ["classes", "{id}", "assignments"], allowed: [.get, .post]) {
        api, captured, request, responder in
        let id: String
        do throws(ScoresAPI.Refusal) { id = try ownClassID(api, request, captured[0]) } catch { return responder.respond(error.response) }
        if request.method == .post {
            let body = request.body
            let games = api.games
            return asTeacher(api, request, responder) { connection, teacher in
                let work: (game: String, mode: String, level: Int?, dueAtMs: Int64?)
                do throws(ScoresAPI.Refusal) { work = try assignmentBody(body, games: games) } catch { return error.response }
                guard let made = try AssignmentStore(connection).create(id: LibCrypto.uuidV4(), classID: id, teacherID: teacher.id,
                                                                        game: work.game, mode: work.mode, level: work.level,
                                                                        dueAtMs: work.dueAtMs) else { return notYourClass }
                guard let record = made.record else {
                    return .error(409, code: "too_many_assignments", message: "a class holds at most \(AssignmentStore.maxPerClass) assignments")
                }
                return .json(201, text: assignmentJSON(record).text)
            }
        }
        asTeacher(api, request, responder, within: ScoresAPI.readDeadline) { connection, teacher in
            guard let list = try AssignmentStore(connection).assignments(classID: id, teacherID: teacher.id) else { return notYourClass }
            return .json(200, text: JSON.object([("assignments", .array(list.map(assignmentJSON)))]).text)
        }
    }

    /// `DELETE /api/classes/{id}/assignments/{assignment}` → 204; the runs
    /// played for it stay in the class's reports.
    static let anAssignment = APIRoute(pattern: ["classes", "{id}", "assignments", "{assignment}"], allowed: [.delete]) {
        api, captured, request, responder in
        let id: String
        do throws(ScoresAPI.Refusal) { id = try ownClassID(api, request, captured[0]) } catch { return responder.respond(error.response) }
        guard ClassroomJSON.isClassID(captured[1]) else {
            return responder.respond(.error(400, code: "bad_assignment_id", message: "an assignment id is a UUID"))
        }
        let assignment = captured[1].lowercased()
        asTeacher(api, request, responder) { connection, teacher in
            try AssignmentStore(connection).delete(id: assignment, classID: id, teacherID: teacher.id)
                ? .noContent : .error(404, code: "unknown_assignment", message: "no such assignment in this class")
        }
    }

    /// `GET /api/players/{name}/assignments` → the work set for every class
    /// the player is in and let into, newest first, each with whether they
    /// played it. The player's token.
    static let playerAssignments = APIRoute(pattern: ["players", "{name}", "assignments"], allowed: [.get]) {
        api, captured, request, responder in
        let player: ScoresAPI.PlayerCredentials
        do throws(ScoresAPI.Refusal) { player = try api.credentials(name: captured[0], request) } catch {
            return responder.respond(error.response)
        }
        api.runAsPlayer(player, responder, within: ScoresAPI.readDeadline) { connection, found in
            let list = try AssignmentStore(connection).assignments(ofPlayer: found.id)
            return .json(200, text: JSON.object([("assignments", .array(list.map(assignmentJSON)))]).text)
        }
    }

    static func assignmentJSON(_ a: AssignmentRecord) -> JSON {
        var fields: [(String, JSON)] = [
            ("id", .string(a.id)), ("game", .string(a.game)), ("mode", .string(a.mode)), ("level", a.level.map { .int($0) } ?? .null),
            ("due", a.dueAtMs.map { .string(ScoresJSON.timestamp($0)) } ?? .null),
            ("created_at", .string(ScoresJSON.timestamp(a.createdAtMs))),
        ]
        if let className = a.className {
            fields += [("class", .string(className)), ("played", .bool(a.playedBy > 0))]
        } else {
            fields.append(("played_by", .int(a.playedBy)))
        }
        return .object(fields)
    }

    /// `{"game", "mode", "level"?, "due"?}`: a game the server hosts, a mode
    /// it offers, one of its levels (games with levels, default 1), and a
    /// due date as an RFC 3339 time.
    static func assignmentBody(_ bytes: [UInt8], games: GameRegistry) throws(ScoresAPI.Refusal)
        -> (game: String, mode: String, level: Int?, dueAtMs: Int64?) {
        guard let body = ScoresAPI.jsonObject(bytes), let game = body["game"]?.string, let modeText = body["mode"]?.string else {
            throw ScoresAPI.Refusal(.error(400, code: "bad_json", message: #"send {"game": "mindpad", "mode": "normal"}"#))
        }
        guard let entry = games.entry(game) else {
            throw ScoresAPI.Refusal(.error(400, code: "unknown_game", message: "no game \(ClientMessage.printable(game))"))
        }
        guard let mode = GameMode(rawValue: modeText), entry.info.modes.contains(mode) else {
            throw ScoresAPI.Refusal(.error(400, code: "mode_not_offered", message: "\(entry.info.names.en) is played in "
                + entry.info.modes.map(\.rawValue).joined(separator: ", ")))
        }
        var level: Int?
        if let value = body["level"], !value.isNull {
            guard let n = value.integer, value.number == Double(n), entry.info.hasLevel(n) else {
                throw ScoresAPI.Refusal(.error(400, code: "bad_level", message: entry.info.hasLevels
                    ? "\(entry.info.names.en) has levels 1 to \(entry.info.levels.count)" : "\(entry.info.names.en) has no levels"))
            }
            level = n
        } else if entry.info.hasLevels {
            level = 1
        }
        var due: Int64?
        if let value = body["due"], !value.isNull {
            guard let text = value.string, let date = ISO8601DateFormatter().date(from: text) ?? Self.fractional(text),
                  date.timeIntervalSince1970 > 0, date.timeIntervalSince1970 < 32_503_680_000 else {
                throw ScoresAPI.Refusal(.error(400, code: "bad_due", message: "due is a time such as 2026-12-18T15:00:00Z"))
            }
            due = Int64(date.timeIntervalSince1970 * 1000)
        }
        return (entry.info.identifier, mode.rawValue, level, due)
    }

    private static func fractional(_ text: String) -> Date? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: text)
    }
}

import Foundation
import MindPadHTTP
import MindPadJSON
import MindPadRules
import MindPadStorage

/// Teachers and their classes (issue 46; docs/openapi.yaml, "classroom"):
/// one collection of routes on the API's router, beside the game kinds'.
/// A teacher signs up with a name and a password and gets a token; signs
/// in on another device with the password; every class route wants the
/// teacher's token, and a class is found only among its own teacher's
/// (`TeacherStore`): another teacher's class is 404, like none at all.
/// Failed passwords and tokens count against the client
/// (`AuthPurpose.teacher`); the password is hashed on a database worker,
/// never on the service thread.
enum ClassroomRoutes {
    static let all: [APIRoute] = [teachers, signIn, me, classes, aClass] + pupilRoutes + reportRoutes + assignmentRoutes

    /// `POST /api/teachers` `{"name", "password"}` → 201 `{"name", "token"}`.
    static let teachers = APIRoute(pattern: ["teachers"], allowed: [.post]) { api, _, request, responder in
        let name: PlayerName, password: String
        do throws(ScoresAPI.Refusal) { (name, password) = try ClassroomJSON.namePassword(request) } catch {
            return responder.respond(error.response)
        }
        if let refusal = PasswordHash.refusal(password) {
            return responder.respond(.error(400, code: "invalid_password", message: refusal))
        }
        let token = PlayerToken.generate()
        let iterations = api.passwordIterations
        api.run(responder) { connection in
            let hash = PasswordHash.make(password, iterations: iterations)
            guard let teacher = try TeacherStore(connection).createTeacher(name: name.display, nameKey: name.key, passwordHash: hash,
                                                                            tokenHash: PlayerToken.hash(token)) else {
                return .error(409, code: "name_taken", message: "a teacher is called that already")
            }
            return .json(201, text: ClassroomJSON.signedIn(teacher, token: token))
        }
    }

    /// `POST /api/teachers/sign_in` `{"name", "password"}` → 200
    /// `{"name", "token"}` (a new token for this device); 401 for an
    /// unknown name or a wrong password alike, counted.
    static let signIn = APIRoute(pattern: ["teachers", "sign_in"], allowed: [.post]) { api, _, request, responder in
        let name: PlayerName, password: String
        do throws(ScoresAPI.Refusal) { (name, password) = try ClassroomJSON.namePassword(request) } catch {
            return responder.respond(error.response)
        }
        let client = api.trustedProxies.clientAddress(of: request)
        if let wait = api.limiter.withLock({ $0.retryAfter(.teacher, client, now: api.now()) }) {
            return responder.respond(ScoresAPI.tooMany(wait))
        }
        let token = PlayerToken.generate()
        api.run(responder, onAuthFailure: { [weak api] in api?.noteFailure(.teacher, client) }) { connection in
            let store = TeacherStore(connection)
            guard let found = try store.credentials(nameKey: name.key), PasswordHash.verify(password, against: found.passwordHash) else {
                return ScoresAPI.unauthorized("unknown teacher or wrong password")
            }
            try store.addToken(teacherID: found.teacher.id, tokenHash: PlayerToken.hash(token))
            return .json(200, text: ClassroomJSON.signedIn(found.teacher, token: token))
        }
    }

    /// `DELETE /api/teachers/me` → 204: the teacher whose token it is goes,
    /// with every token of theirs, their classes and their classes' lists,
    /// at once (the pupils stay players; only their places go).
    static let me = APIRoute(pattern: ["teachers", "me"], allowed: [.delete]) { api, _, request, responder in
        asTeacher(api, request, responder) { connection, teacher in
            _ = try TeacherStore(connection).deleteTeacher(id: teacher.id)
            return .noContent
        }
    }

    /// `GET /api/classes` → the teacher's classes, oldest first;
    /// `POST /api/classes` `{"name"}` → 201, the class with its join code.
    static let classes = APIRoute(pattern: ["classes"], allowed: [.get, .post]) { api, _, request, responder in
        if request.method == .post {
            // Whose first, then what: a request that is not a teacher's is
            // 401, whatever its body (a stranger learns nothing from how a
            // body would have been refused).
            let body = request.body
            return asTeacher(api, request, responder) { connection, teacher in
                let name: String
                do throws(ScoresAPI.Refusal) { name = try ClassroomJSON.className(body) } catch { return error.response }
                let store = TeacherStore(connection)
                // A taken code is a 1 in 887 million event per class held; draw again.
                for _ in 0..<3 {
                    if let made = try store.createClass(id: LibCrypto.uuidV4(), teacherID: teacher.id, name: name,
                                                        joinCode: ClassCode.generate()) {
                        return .json(201, text: ClassroomJSON.classJSON(made).text)
                    }
                }
                throw PostgresError(.unexpectedResult, message: "three join codes in a row were taken")
            }
        }
        asTeacher(api, request, responder, within: ScoresAPI.readDeadline) { connection, teacher in
            let list = try TeacherStore(connection).classes(teacherID: teacher.id)
            return .json(200, text: JSON.object([("classes", .array(list.map(ClassroomJSON.classJSON)))]).text)
        }
    }

    /// `GET /api/classes/{id}` → the class; `DELETE` → 204. 404 for a class
    /// that is not this teacher's.
    static let aClass = APIRoute(pattern: ["classes", "{id}"], allowed: [.get, .patch, .delete]) { api, captured, request, responder in
        let id: String
        do throws(ScoresAPI.Refusal) { id = try ownClassID(api, request, captured[0]) } catch { return responder.respond(error.response) }
        if request.method == .patch {
            // The class's privacy settings; a shorter stroke retention
            // applies at once.
            let body = request.body
            return asTeacher(api, request, responder) { connection, teacher in
                let settings: (publicBoards: Bool?, strokeDays: Int??)
                do throws(ScoresAPI.Refusal) { settings = try ClassroomJSON.classSettings(body) } catch { return error.response }
                guard let updated = try TeacherStore(connection).updateClass(id: id, teacherID: teacher.id, publicBoards: settings.publicBoards,
                                                                            strokeDays: settings.strokeDays) else { return notYourClass }
                if updated.strokeDays != nil { try ClassPrivacyStore(connection).expireStrokes(classID: id) }
                return .json(200, text: ClassroomJSON.classJSON(updated).text)
            }
        }
        if request.method == .delete {
            return asTeacher(api, request, responder) { connection, teacher in
                try TeacherStore(connection).deleteClass(id: id, teacherID: teacher.id) ? .noContent : notYourClass
            }
        }
        asTeacher(api, request, responder, within: ScoresAPI.readDeadline) { connection, teacher in
            guard let found = try TeacherStore(connection).ownClass(id: id, teacherID: teacher.id) else { return notYourClass }
            return .json(200, text: ClassroomJSON.classJSON(found).text)
        }
    }

    /// Runs `work` on a database worker as the teacher whose token the
    /// request brings: 401 without one (not counted: no token is no guess)
    /// or with a wrong one (counted), 429 while the client is blocked.
    static func asTeacher(_ api: ScoresAPI, _ request: HTTPRequest, _ responder: HTTPResponder, within: Duration? = nil,
                          _ work: @escaping @Sendable (PostgresConnection, TeacherRecord) throws -> HTTPResponse) {
        let token: String
        do throws(ScoresAPI.Refusal) { token = try teacherToken(api, request) } catch { return responder.respond(error.response) }
        let client = api.trustedProxies.clientAddress(of: request)
        let tokenHash = PlayerToken.hash(token)
        api.run(responder, within: within, onAuthFailure: { [weak api] in api?.noteFailure(.teacher, client) }) { connection in
            guard let teacher = try TeacherStore(connection).teacher(tokenHash: tokenHash) else {
                return ScoresAPI.unauthorized("wrong or unknown teacher's token")
            }
            return try work(connection, teacher)
        }
    }
}

extension ClassroomRoutes {
    /// The teacher's token a request brings: 401 without one, 429 while
    /// the client is blocked from guessing. Checked before the body, so a
    /// stranger learns nothing from how a body is refused.
    static func teacherToken(_ api: ScoresAPI, _ request: HTTPRequest) throws(ScoresAPI.Refusal) -> String {
        guard let token = request.bearerToken else {
            throw ScoresAPI.Refusal(ScoresAPI.unauthorized("send the teacher's token as Authorization: Bearer <token>"))
        }
        let client = api.trustedProxies.clientAddress(of: request)
        if let wait = api.limiter.withLock({ $0.retryAfter(.teacher, client, now: api.now()) }) {
            throw ScoresAPI.Refusal(ScoresAPI.tooMany(wait))
        }
        return token
    }
}

/// The classroom's request and response shapes.
enum ClassroomJSON {
    /// `{"name": …, "password": …}` with a name as players' names go.
    static func namePassword(_ request: HTTPRequest) throws(ScoresAPI.Refusal) -> (PlayerName, String) {
        guard let body = ScoresAPI.jsonObject(request.body), let raw = body["name"]?.string, let password = body["password"]?.string else {
            throw ScoresAPI.Refusal(.error(400, code: "bad_json", message: #"send {"name": "…", "password": "…"}"#))
        }
        do { return (try PlayerName(validating: raw), password) } catch {
            throw ScoresAPI.Refusal(.error(400, code: "invalid_name", message: error.description))
        }
    }

    /// Class names: 1–40 characters after trimming, no control characters.
    static func className(_ bytes: [UInt8]) throws(ScoresAPI.Refusal) -> String {
        guard let body = ScoresAPI.jsonObject(bytes), let raw = body["name"]?.string else {
            throw ScoresAPI.Refusal(.error(400, code: "bad_json", message: #"send {"name": "…"}"#))
        }
        let name = raw.trimmingCharacters(in: .whitespaces)
        guard (1...40).contains(name.count), !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw ScoresAPI.Refusal(.error(400, code: "invalid_class_name", message: "a class name has 1–40 characters"))
        }
        return name
    }

    static func isClassID(_ text: String) -> Bool {
        UUID(uuidString: text) != nil && text.count == 36
    }

    static func signedIn(_ teacher: TeacherRecord, token: String) -> String {
        JSON.object([("name", .string(teacher.name)), ("token", .string(token))]).text
    }

    static func classJSON(_ c: ClassRecord) -> JSON {
        .object([("id", .string(c.id)), ("name", .string(c.name)), ("join_code", .string(c.joinCode)),
                 ("created_at", .string(ScoresJSON.timestamp(c.createdAtMs))), ("public_boards", .bool(c.publicBoards)),
                 ("stroke_days", c.strokeDays.map { .int($0) } ?? .null)])
    }

    /// `{"public_boards": true|false, "stroke_days": 1…3650 | null}`, each
    /// optional (absent: unchanged; `stroke_days` null: the server's retention).
    static func classSettings(_ bytes: [UInt8]) throws(ScoresAPI.Refusal) -> (publicBoards: Bool?, strokeDays: Int??) {
        guard let body = ScoresAPI.jsonObject(bytes) else {
            throw ScoresAPI.Refusal(.error(400, code: "bad_json", message: #"send {"public_boards": false, "stroke_days": 7}"#))
        }
        var publicBoards: Bool?
        if let value = body["public_boards"] {
            guard let flag = value.bool else {
                throw ScoresAPI.Refusal(.error(400, code: "bad_json", message: "public_boards is true or false"))
            }
            publicBoards = flag
        }
        var strokeDays: Int??
        if let value = body["stroke_days"] {
            if value.isNull {
                strokeDays = .some(nil)
            } else if let days = value.integer, (1...3650).contains(days), value.number == Double(days) {
                strokeDays = .some(days)
            } else {
                throw ScoresAPI.Refusal(.error(400, code: "invalid_stroke_days", message: "stroke_days is 1…3650 days, or null"))
            }
        }
        return (publicBoards, strokeDays)
    }
}

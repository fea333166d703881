import Foundation
import MindPadHTTP
import MindPadJSON
import MindPadRules
import MindPadStorage

/// A class's pupils (issue 46; docs/openapi.yaml, "classroom"): the
/// teacher's roster and approvals, and a pupil (a player, with their
/// device's token) joining with the class's code. No pupil e-mail, no pupil
/// password: a pupil is the player their device already is.
extension ClassroomRoutes {
    static let pupilRoutes: [APIRoute] = [pupils, aPupil, approve, pupilData, classCode, playerClasses]

    /// `GET /api/classes/{id}/pupils` → the class's names: taken or not,
    /// approved or waiting; `POST` `{"names": [...]}` adds roster names
    /// (player-name rules; at most `ClassPupilStore.maxPupils` in a class:
    /// 409 `class_full`, nothing added).
    static let pupils = APIRoute(pattern: ["classes", "{id}", "pupils"], allowed: [.get, .post]) { api, captured, request, responder in
        let id: String
        do throws(ScoresAPI.Refusal) { id = try ownClassID(api, request, captured[0]) } catch { return responder.respond(error.response) }
        if request.method == .post {
            let body = request.body
            return asTeacher(api, request, responder) { connection, teacher in
                let names: [PlayerName]
                do throws(ScoresAPI.Refusal) { names = try ClassroomJSON.rosterNames(body) } catch { return error.response }
                guard let (list, full) = try ClassPupilStore(connection).addRoster(classID: id, teacherID: teacher.id,
                                                                                   names: names.map { ($0.display, $0.key) }) else {
                    return notYourClass
                }
                if full {
                    return .error(409, code: "class_full", message: "a class has at most \(ClassPupilStore.maxPupils) names")
                }
                return .json(200, text: ClassroomJSON.pupils(list).text)
            }
        }
        asTeacher(api, request, responder, within: ScoresAPI.readDeadline) { connection, teacher in
            guard let list = try ClassPupilStore(connection).pupils(classID: id, teacherID: teacher.id) else { return notYourClass }
            return .json(200, text: ClassroomJSON.pupils(list).text)
        }
    }

    /// `DELETE /api/classes/{id}/pupils/{name}` → 204: the name (and the
    /// pupil who took it) leaves the class.
    static let aPupil = APIRoute(pattern: ["classes", "{id}", "pupils", "{name}"], allowed: [.delete]) { api, captured, request, responder in
        let id: String, name: PlayerName
        do throws(ScoresAPI.Refusal) { (id, name) = try classAndPupil(api, request, captured) } catch {
            return responder.respond(error.response)
        }
        asTeacher(api, request, responder) { connection, teacher in
            try ClassPupilStore(connection).remove(classID: id, teacherID: teacher.id, nameKey: name.key) ? .noContent : unknownPupil
        }
    }

    /// `POST /api/classes/{id}/pupils/{name}/approve` → the pupil, let in.
    static let approve = APIRoute(pattern: ["classes", "{id}", "pupils", "{name}", "approve"], allowed: [.post]) {
        api, captured, request, responder in
        let id: String, name: PlayerName
        do throws(ScoresAPI.Refusal) { (id, name) = try classAndPupil(api, request, captured) } catch {
            return responder.respond(error.response)
        }
        asTeacher(api, request, responder) { connection, teacher in
            guard let pupil = try ClassPupilStore(connection).approve(classID: id, teacherID: teacher.id, nameKey: name.key) else {
                return unknownPupil
            }
            return .json(200, text: ClassroomJSON.pupil(pupil).text)
        }
    }

    /// `DELETE /api/classes/{id}/pupils/{name}/data` → 204: everything the
    /// class holds of the pupil goes at once (`ClassPrivacyStore.deletePupilData`).
    static let pupilData = APIRoute(pattern: ["classes", "{id}", "pupils", "{name}", "data"], allowed: [.delete]) {
        api, captured, request, responder in
        let id: String, name: PlayerName
        do throws(ScoresAPI.Refusal) { (id, name) = try classAndPupil(api, request, captured) } catch {
            return responder.respond(error.response)
        }
        asTeacher(api, request, responder) { connection, teacher in
            switch try ClassPrivacyStore(connection).deletePupilData(classID: id, teacherID: teacher.id, nameKey: name.key) {
            case nil: notYourClass
            case false?: unknownPupil
            case true?: .noContent
            }
        }
    }

    /// `GET /api/class_codes/{code}` → the class's name and the roster
    /// names nobody took yet, for a pupil to pick theirs. Anyone with the
    /// code may ask: the code is what the board shows the class.
    static let classCode = APIRoute(pattern: ["class_codes", "{code}"], allowed: [.get]) { api, captured, _, responder in
        guard let code = ClassCode.normalized(captured[0]) else { return responder.respond(badCode) }
        api.run(responder, within: ScoresAPI.readDeadline) { connection in
            guard let found = try ClassPupilStore(connection).lookUp(code: code) else { return unknownCode }
            return .json(200, text: JSON.object([("class", .string(found.className)),
                                                 ("names", .array(found.freeNames.map(JSON.string)))]).text)
        }
    }

    /// `GET /api/players/{name}/classes` → the classes the player is in;
    /// `POST` `{"code", "name"?}` joins one: under the roster name `name`
    /// (first come, in at once) or, without one, under the player's own
    /// name, waiting for the teacher. The player's token, as for their fish.
    static let playerClasses = APIRoute(pattern: ["players", "{name}", "classes"], allowed: [.get, .post]) {
        api, captured, request, responder in
        let player: ScoresAPI.PlayerCredentials
        do throws(ScoresAPI.Refusal) { player = try api.credentials(name: captured[0], request) } catch {
            return responder.respond(error.response)
        }
        if request.method == .post {
            let body = request.body
            return api.runAsPlayer(player, responder) { connection, found in
                guard let json = ScoresAPI.jsonObject(body), let typed = json["code"]?.string else {
                    return .error(400, code: "bad_json", message: #"send {"code": "…"} and, to take a name on the class's list, "name""#)
                }
                guard let code = ClassCode.normalized(typed) else { return badCode }
                var rosterKey: String?
                if let value = json["name"], !value.isNull {
                    guard let raw = value.string, let name = try? PlayerName(validating: raw) else {
                        return .error(400, code: "invalid_name", message: "name must be a name on the class's list")
                    }
                    rosterKey = name.key
                }
                let own = try PlayerName(validating: found.name)
                switch try ClassPupilStore(connection).join(code: code, playerID: found.id, rosterKey: rosterKey,
                                                            ownName: (own.display, own.key)) {
                case .joined(let className, let pupil):
                    return .json(200, text: ClassroomJSON.membership(className, pupil).text)
                case .unknownCode: return unknownCode
                case .nameTaken:
                    return .error(409, code: "name_taken", message: "someone in this class has that name already; ask your teacher")
                case .notOnRoster:
                    return .error(404, code: "unknown_pupil", message: "that name is not on the class's list")
                case .full:
                    return .error(409, code: "class_full", message: "this class is full; ask your teacher")
                }
            }
        }
        api.runAsPlayer(player, responder, within: ScoresAPI.readDeadline) { connection, found in
            let list = try ClassPupilStore(connection).classes(of: found.id)
            return .json(200, text: JSON.object([("classes", .array(list.map {
                ClassroomJSON.membership($0.className, $0.pupil, lesson: $0.lesson)
            }))]).text)
        }
    }

    /// A class id in a path, once the request is known to bring a
    /// teacher's token (401 first: a stranger learns nothing from the id).
    static func ownClassID(_ api: ScoresAPI, _ request: HTTPRequest, _ raw: String) throws(ScoresAPI.Refusal) -> String {
        _ = try teacherToken(api, request)
        guard ClassroomJSON.isClassID(raw) else {
            throw ScoresAPI.Refusal(.error(400, code: "bad_class_id", message: "a class id is a UUID"))
        }
        return raw.lowercased()
    }

    /// A class id and a pupil's name in a path (`…/classes/{id}/pupils/{name}…`).
    static func classAndPupil(_ api: ScoresAPI, _ request: HTTPRequest,
                              _ captured: [String]) throws(ScoresAPI.Refusal) -> (String, PlayerName) {
        (try ownClassID(api, request, captured[0]), try ScoresAPI.playerName(captured[1]))
    }

    static let notYourClass = HTTPResponse.error(404, code: "unknown_class", message: "you have no class with this id")
    static let unknownPupil = HTTPResponse.error(404, code: "unknown_pupil", message: "no such name in this class")
    static let unknownCode = HTTPResponse.error(404, code: "unknown_class_code", message: "no class has this code; check it with your teacher")
    static let badCode = HTTPResponse.error(400, code: "bad_class_code",
                                            message: "a class code is 6 letters and digits, like K7QF3M")
}

extension ClassroomJSON {
    /// `{"names": [...]}`: 1…`ClassPupilStore.maxPupils` names, each by the
    /// player-name rules.
    static func rosterNames(_ bytes: [UInt8]) throws(ScoresAPI.Refusal) -> [PlayerName] {
        guard let body = ScoresAPI.jsonObject(bytes), let list = body["names"]?.array,
              (1...ClassPupilStore.maxPupils).contains(list.count) else {
            throw ScoresAPI.Refusal(.error(400, code: "bad_json",
                                           message: #"send {"names": ["…", …]}: 1 to \#(ClassPupilStore.maxPupils) names"#))
        }
        var names: [PlayerName] = []
        for item in list {
            guard let raw = item.string, let name = try? PlayerName(validating: raw) else {
                throw ScoresAPI.Refusal(.error(400, code: "invalid_name",
                                               message: "\(item.text) is no name: 1–20 letters, digits, spaces, _ or -"))
            }
            names.append(name)
        }
        return names
    }

    static func pupil(_ p: PupilRecord) -> JSON {
        .object([("name", .string(p.name)), ("joined", .bool(p.joined)), ("approved", .bool(p.approved))])
    }

    static func pupils(_ list: [PupilRecord]) -> JSON {
        .object([("pupils", .array(list.map(pupil)))])
    }

    /// `lesson`: the room of the lesson the class is having now (a pupil's
    /// list of classes only).
    static func membership(_ className: String, _ p: PupilRecord, lesson: String?? = nil) -> JSON {
        var fields: [(String, JSON)] = [("class", .string(className)), ("name", .string(p.name)), ("approved", .bool(p.approved))]
        if let lesson { fields.append(("lesson", lesson.map { .string($0) } ?? .null)) }
        return .object(fields)
    }
}

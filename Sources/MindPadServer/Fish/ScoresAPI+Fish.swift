import MindPadHTTP
import Foundation
import MindPadJSON
import MindPadRules
import MindPadStorage

/// A player's pet fish (docs/openapi.yaml, "fish"). Private to the player:
/// every call proves it with their token through `runAsPlayer`, the path
/// their own highscore reset takes, so wrong tokens count against the same
/// failure limit. Input is checked here, on the service thread; only valid
/// requests reach a database worker.
extension ScoresAPI {
    func listFish(name raw: String, _ request: HTTPRequest, _ responder: HTTPResponder) {
        let player: PlayerCredentials
        do { player = try credentials(name: raw, request) } catch { return responder.respond(error.response) }
        runAsPlayer(player, responder, within: Self.readDeadline) { connection, found in
            .json(200, FishJSON.List(fish: try FishStore(connection).list(playerID: found.id).map(FishJSON.Fish.init)))
        }
    }

    func createFish(name raw: String, _ request: HTTPRequest, _ responder: HTTPResponder) {
        let player: PlayerCredentials
        let fish: (name: String, kind: String)
        do {
            player = try credentials(name: raw, request)
            fish = try Self.newFish(request.body)
        } catch {
            return responder.respond(error.response)
        }
        // Made here, not by the database: the id is a secret-grade random
        // value from libcrypto (`LibCrypto.uuidV4`).
        let id = LibCrypto.uuidV4()
        runAsPlayer(player, responder) { connection, found in
            switch try FishStore(connection).create(playerID: found.id, id: id, name: fish.name, kind: fish.kind) {
            case .created(let record):
                return .json(201, FishJSON.Fish(record))
            case .tooMany:
                return .error(409, code: "too_many_fish",
                              message: "a player may keep at most \(FishStore.maxPerPlayer) fish; let one go first")
            }
        }
    }

    func deleteFish(name raw: String, id rawID: String, _ request: HTTPRequest, _ responder: HTTPResponder) {
        let player: PlayerCredentials
        do { player = try credentials(name: raw, request) } catch { return responder.respond(error.response) }
        guard let id = UUID(uuidString: rawID)?.uuidString.lowercased() else {
            return responder.respond(.error(400, code: "bad_fish", message: "a fish's id is a UUID, like 1b4e28ba-2fa1-41d2-883f-0016d3cca427"))
        }
        runAsPlayer(player, responder) { connection, found in
            guard try FishStore(connection).delete(playerID: found.id, id: id) else {
                return .error(404, code: "unknown_fish", message: "\(found.name) has no fish with that id")
            }
            return .noContent
        }
    }

    /// The name and kind of `POST …/fish`'s body, or the 400 that says
    /// what is wrong with it. A fish's name follows the player-name rules
    /// (`PlayerName`) and is stored as its trimmed display form; the
    /// `fish` table also counts at most 20 code points, so a name whose
    /// letters carry many accents is refused here rather than by the
    /// database.
    static func newFish(_ body: [UInt8]) throws(Refusal) -> (name: String, kind: String) {
        let kinds = FishKind.all.joined(separator: ", ")
        guard let json = jsonObject(body) else {
            throw Refusal(.error(400, code: "bad_json", message: #"send {"name": "…", "kind": "…"} as a JSON object"#))
        }
        guard let raw = json["name"]?.string else {
            throw Refusal(.error(400, code: "invalid_name", message: "name must be a string: the fish's name"))
        }
        let name: PlayerName
        do { name = try PlayerName(validating: raw) } catch {
            throw Refusal(.error(400, code: "invalid_name", message: error.description))
        }
        guard name.display.unicodeScalars.count <= PlayerName.maximumLength else {
            throw Refusal(.error(400, code: "invalid_name",
                                 message: "a fish's name may hold at most \(PlayerName.maximumLength) characters, each accent counted apart"))
        }
        guard let kind = json["kind"]?.string, FishKind.all.contains(kind) else {
            throw Refusal(.error(400, code: "unknown_kind", message: "kind must be one of \(kinds)"))
        }
        return (name.display, kind)
    }
}

import Foundation
import MindPadHTTP
import MindPadJSON
import MindPadRecognition
import MindPadRules
import MindPadStorage

/// A class's reports (issue 46, item 4; docs/openapi.yaml, "classroom"):
/// every answer its pupils gave in its lessons, each wrong one classified
/// (`ClassReport`), for the class's teacher only.
extension ClassroomRoutes {
    static let reportRoutes: [APIRoute] = [report, reportCSV, pupilAnswers]

    /// `GET /api/classes/{id}/report` → the pupils' lines and every answer,
    /// without strokes.
    static let report = wholeClass(["classes", "{id}", "report"]) { .json(200, text: $0.json.text) }

    /// `GET /api/classes/{id}/report.csv` → the same answers as CSV, a
    /// file to save (`content-disposition: attachment`).
    static let reportCSV = wholeClass(["classes", "{id}", "report.csv"]) { report in
        HTTPResponse(status: 200, contentType: "text/csv; charset=utf-8",
                     headers: [("content-disposition", "attachment; filename=\"class-report.csv\""), ("cache-control", "no-store")],
                     body: Array(report.csv.utf8))
    }

    /// A route answering the class's whole report in the form `answer` gives it.
    private static func wholeClass(_ pattern: [String], _ answer: @escaping @Sendable (ClassReport) -> HTTPResponse) -> APIRoute {
        APIRoute(pattern: pattern, allowed: [.get]) { api, captured, request, responder in
            let id: String
            do throws(ScoresAPI.Refusal) { id = try ownClassID(api, request, captured[0]) } catch { return responder.respond(error.response) }
            let recognizer = api.recognizer
            asTeacher(api, request, responder, within: .seconds(5)) { connection, teacher in
                guard let report = try classReport(connection, id: id, teacher: teacher, recognizer: recognizer) else { return notYourClass }
                return answer(report)
            }
        }
    }

    /// `GET /api/classes/{id}/pupils/{name}/answers` → one pupil's answers
    /// with the strokes they wrote (for the thumbnails), and their line.
    static let pupilAnswers = APIRoute(pattern: ["classes", "{id}", "pupils", "{name}", "answers"], allowed: [.get]) {
        api, captured, request, responder in
        let id: String, name: PlayerName
        do throws(ScoresAPI.Refusal) { (id, name) = try classAndPupil(api, request, captured) } catch {
            return responder.respond(error.response)
        }
        let recognizer = api.recognizer
        asTeacher(api, request, responder, within: .seconds(5)) { connection, teacher in
            guard try ClassPupilStore(connection).pupils(classID: id, teacherID: teacher.id)?
                .contains(where: { (try? PlayerName(validating: $0.name))?.key == name.key }) == true
            else { return unknownPupil }
            guard let report = try classReport(connection, id: id, teacher: teacher, pupilKey: name.key, strokes: true,
                                               recognizer: recognizer) else {
                return notYourClass
            }
            return .json(200, text: report.json.text)
        }
    }

    private static func classReport(_ connection: PostgresConnection, id: String, teacher: TeacherRecord, pupilKey: String? = nil,
                                    strokes: Bool = false, recognizer: Recognizer?) throws -> ClassReport? {
        guard let found = try ClassReportStore(connection).answers(classID: id, teacherID: teacher.id, pupilKey: pupilKey,
                                                                   strokes: strokes) else { return nil }
        return ClassReport(className: found.className, rows: found.rows, withStrokes: strokes, reread: ClassReport.rereader(recognizer))
    }
}

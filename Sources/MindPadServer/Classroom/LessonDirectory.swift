import Foundation
import Logging
import MindPadStorage

/// A teacher's class a lesson is for, as the directory found it.
public struct LessonClass: Sendable, Equatable {
    public let classID: String
    public let name: String
    public let teacherID: Int64
    /// The teacher lets the lesson's results onto the public boards.
    public let publicBoards: Bool

    public init(classID: String, name: String, teacherID: Int64, publicBoards: Bool = false) {
        (self.classID, self.name, self.teacherID, self.publicBoards) = (classID, name, teacherID, publicBoards)
    }
}

/// What the realtime hub asks storage about lessons (issue 46). The
/// completions run on any thread.
public protocol LessonDirectory: Sendable {
    /// The class `classID` of the teacher holding `token`: nil when the
    /// token is no teacher's or the class is not theirs (the same answer,
    /// as the classroom's routes give).
    func lessonClass(token: String, classID: String, completion: @escaping @Sendable (Result<LessonClass?, PostgresError>) -> Void)
    /// Whether the player is a pupil the teacher let into the class.
    func isPupil(classID: String, playerID: Int64, completion: @escaping @Sendable (Result<Bool, PostgresError>) -> Void)
    /// The class ran this race (a lesson's round, or a run of the
    /// assignment `assignmentID`), for its reports; best effort (a failure
    /// is logged, the lesson goes on).
    func recordRace(classID: String, raceID: String, roomID: String, game: String, assignmentID: String?)
    /// The class is having a lesson in `room` now (`room` nil: the lesson in
    /// `ended` is over); best effort, as `recordRace`.
    func lessonNow(classID: String, room: String?, ended: String?, instance: String?)
    /// The assignment `id` if the player may play it (a pupil let into its
    /// class), with its class's public-boards setting; nil otherwise.
    func assignment(id: String, playerID: Int64,
                    completion: @escaping @Sendable (Result<(record: AssignmentRecord, publicBoards: Bool)?, PostgresError>) -> Void)
}

/// The lessons' questions on PostgreSQL, on the database workers.
public struct PostgresLessonDirectory: LessonDirectory {
    let pool: DatabaseWorkerPool
    let logger: Logger

    public init(pool: DatabaseWorkerPool, logger: Logger = Logger(label: "mindpad.lessons")) {
        self.pool = pool
        self.logger = logger
    }

    public func lessonClass(token: String, classID: String,
                            completion: @escaping @Sendable (Result<LessonClass?, PostgresError>) -> Void) {
        let tokenHash = PlayerToken.hash(token)
        pool.run({ connection in
            let store = TeacherStore(connection)
            guard let teacher = try store.teacher(tokenHash: tokenHash),
                  let found = try store.ownClass(id: classID, teacherID: teacher.id) else { return nil }
            return LessonClass(classID: found.id, name: found.name, teacherID: teacher.id, publicBoards: found.publicBoards)
        }, within: ScoresAPI.readDeadline, completion: { completion($0) })
    }

    public func isPupil(classID: String, playerID: Int64, completion: @escaping @Sendable (Result<Bool, PostgresError>) -> Void) {
        pool.run({ connection in
            try LessonStore(connection).isPupil(classID: classID, playerID: playerID)
        }, within: ScoresAPI.readDeadline, completion: { completion($0) })
    }

    public func assignment(id: String, playerID: Int64,
                           completion: @escaping @Sendable (Result<(record: AssignmentRecord, publicBoards: Bool)?, PostgresError>) -> Void) {
        pool.run({ connection in
            try AssignmentStore(connection).playable(id: id, playerID: playerID)
        }, within: ScoresAPI.readDeadline, completion: { completion($0) })
    }

    public func lessonNow(classID: String, room: String?, ended: String?, instance: String?) {
        let logger = logger
        pool.run({ connection in
            let store = LessonStore(connection)
            if let room { try store.setLesson(classID: classID, room: room, instance: instance) }
            if let ended { try store.clearLesson(classID: classID, room: ended) }
        }, within: .seconds(5), completion: { result in
            if case .failure(let error) = result {
                logger.warning("the class's lesson now was not recorded", metadata: ["error": "\(error)"])
            }
        })
    }

    public func recordRace(classID: String, raceID: String, roomID: String, game: String, assignmentID: String?) {
        let logger = logger
        pool.run({ connection in
            try LessonStore(connection).recordRace(classID: classID, raceID: raceID, roomID: roomID, game: game,
                                                   assignmentID: assignmentID)
        }, within: .seconds(5), completion: { result in
            if case .failure(let error) = result {
                logger.warning("a lesson's race was not recorded", metadata: ["race": "\(raceID)", "error": "\(error)"])
            }
        })
    }
}

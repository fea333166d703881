import Foundation
import MindPadStorage
import MindPadTestSupport
import Testing

/// A class's pupils (issue 46, migration 0020): the teacher's roster, a
/// pupil taking their name with the class's code or joining under a name
/// of their own that waits for the teacher; every teacher's call refused on
/// another teacher's class.
@Suite struct ClassPupilStoreTests {
    struct Class {
        let store: ClassPupilStore
        let teacher: Int64
        let other: Int64
        let klass: ClassRecord
    }

    func setUp(_ db: ScratchDatabase) throws -> (Class, ScoreStore) {
        let connection = try db.connect()
        let teachers = TeacherStore(connection)
        let rao = try #require(try teachers.createTeacher(name: "Ms Rao", nameKey: "ms rao",
                                                          passwordHash: PasswordHash.make("pass word", iterations: 10),
                                                          tokenHash: PlayerToken.hash("t1")))
        let lee = try #require(try teachers.createTeacher(name: "Mr Lee", nameKey: "mr lee",
                                                          passwordHash: PasswordHash.make("pass word", iterations: 10),
                                                          tokenHash: PlayerToken.hash("t2")))
        let klass = try #require(try teachers.createClass(id: LibCrypto.uuidV4(), teacherID: rao.id, name: "3B", joinCode: "ABC234"))
        return (Class(store: ClassPupilStore(connection), teacher: rao.id, other: lee.id, klass: klass), ScoreStore(connection))
    }

    @Test func aRosterIsTakenNameByNameFirstComeFirstServed() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let (c, scores) = try setUp(db)
        let ann = try scores.player("Ann"), bo = try scores.player("Bo"), cy = try scores.player("Cy")
        let added = try #require(try c.store.addRoster(classID: c.klass.id, teacherID: c.teacher,
                                                       names: [("Ann", "ann"), ("Bo", "bo"), ("ANN", "ann"), ("Dee", "dee")]))
        #expect(!added.full && added.pupils.map(\.name) == ["Ann", "Bo", "Dee"] && added.pupils.allSatisfy { $0.approved && !$0.joined })
        // Another teacher adds nothing to it and reads nothing of it.
        #expect(try c.store.addRoster(classID: c.klass.id, teacherID: c.other, names: [("Eve", "eve")]) == nil)
        #expect(try c.store.pupils(classID: c.klass.id, teacherID: c.other) == nil)
        // The code shows the names nobody took.
        #expect(try c.store.lookUp(code: "ABC234")?.freeNames == ["Ann", "Bo", "Dee"])
        #expect(try c.store.lookUp(code: "ZZZ999") == nil)
        // Ann takes "Ann"; Bo cannot take it too; Bo takes "Bo".
        #expect(try c.store.join(code: "ABC234", playerID: ann.id, rosterKey: "ann", ownName: ("Ann", "ann"))
                == .joined(className: "3B", pupil: PupilRecord(name: "Ann", playerID: ann.id, approved: true)))
        #expect(try c.store.join(code: "ABC234", playerID: bo.id, rosterKey: "ann", ownName: ("Bo", "bo")) == .nameTaken)
        #expect(try c.store.join(code: "ABC234", playerID: bo.id, rosterKey: "zed", ownName: ("Bo", "bo")) == .notOnRoster)
        #expect(try c.store.join(code: "ABC234", playerID: bo.id, rosterKey: "bo", ownName: ("Bo", "bo"))
                == .joined(className: "3B", pupil: PupilRecord(name: "Bo", playerID: bo.id, approved: true)))
        // Ann again (another tab): her place, as it is, whatever she asks for.
        #expect(try c.store.join(code: "ABC234", playerID: ann.id, rosterKey: "dee", ownName: ("Ann", "ann"))
                == .joined(className: "3B", pupil: PupilRecord(name: "Ann", playerID: ann.id, approved: true)))
        #expect(try c.store.lookUp(code: "ABC234")?.freeNames == ["Dee"])
        // Cy is on no list: in under his own name, waiting; the teacher lets him in.
        #expect(try c.store.join(code: "ABC234", playerID: cy.id, rosterKey: nil, ownName: ("Cy", "cy"))
                == .joined(className: "3B", pupil: PupilRecord(name: "Cy", playerID: cy.id, approved: false)))
        #expect(try c.store.approve(classID: c.klass.id, teacherID: c.other, nameKey: "cy") == nil)
        #expect(try c.store.approve(classID: c.klass.id, teacherID: c.teacher, nameKey: "cy")?.approved == true)
        #expect(try c.store.classes(of: cy.id).map(\.className) == ["3B"])
        #expect(try c.store.unknownCodeJoin(scores))
        // The teacher takes Bo off; another teacher cannot.
        #expect(try !c.store.remove(classID: c.klass.id, teacherID: c.other, nameKey: "bo"))
        #expect(try c.store.remove(classID: c.klass.id, teacherID: c.teacher, nameKey: "bo"))
        #expect(try c.store.pupils(classID: c.klass.id, teacherID: c.teacher)?.map(\.name) == ["Ann", "Cy", "Dee"])
        #expect(try c.store.classes(of: bo.id).isEmpty)
    }

    @Test func aClassHoldsAtMostSixtyNames() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let (c, scores) = try setUp(db)
        let fifty9 = (1...59).map { ("P\($0)", "p\($0)") }
        #expect(try c.store.addRoster(classID: c.klass.id, teacherID: c.teacher, names: fifty9)?.full == false)
        // Two more would pass 60: neither goes in.
        let over = try #require(try c.store.addRoster(classID: c.klass.id, teacherID: c.teacher, names: [("Q1", "q1"), ("Q2", "q2")]))
        #expect(over.full && over.pupils.count == 59)
        let zed = try scores.player("Zed"), yan = try scores.player("Yan")
        #expect(try c.store.join(code: "ABC234", playerID: zed.id, rosterKey: nil, ownName: ("Zed", "zed")) != .full)
        #expect(try c.store.join(code: "ABC234", playerID: yan.id, rosterKey: nil, ownName: ("Yan", "yan")) == .full)
    }

    /// A player deleted leaves the class with them; a class deleted takes
    /// its names.
    @Test func deletionsTakeTheirRows() throws {
        let db = try migratedDatabase()
        defer { db.drop() }
        let (c, scores) = try setUp(db)
        let ann = try scores.player("Ann")
        _ = try c.store.join(code: "ABC234", playerID: ann.id, rosterKey: nil, ownName: ("Ann", "ann"))
        _ = try scores.connection.query("DELETE FROM players WHERE id = \(ann.id)::bigint")
        #expect(try c.store.pupils(classID: c.klass.id, teacherID: c.teacher) == [])
        _ = try c.store.addRoster(classID: c.klass.id, teacherID: c.teacher, names: [("Bo", "bo")])
        #expect(try TeacherStore(scores.connection).deleteClass(id: c.klass.id, teacherID: c.teacher))
        #expect(try scores.connection.query("SELECT count(*) AS n FROM class_pupils").value("n") == "0")
    }
}

extension ClassPupilStore {
    /// A code no class has joins nothing.
    func unknownCodeJoin(_ scores: ScoreStore) throws -> Bool {
        try join(code: "QQQ999", playerID: try scores.player("Nobody").id, rosterKey: nil, ownName: ("Nobody", "nobody")) == .unknownCode
    }
}

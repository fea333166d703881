import MindPadStorage
import Testing

@Suite struct SQLQueryTests {
    @Test func interpolationsBecomeBinds() {
        let name = "Robert'); DROP TABLE players;--"
        let limit = 10
        let query: SQLQuery = "SELECT * FROM players WHERE name = \(name) LIMIT \(limit)"
        #expect(query.sql == "SELECT * FROM players WHERE name = $1 LIMIT $2")
        #expect(query.binds == [name, "10"])
    }

    @Test func optionalsBindNull() {
        let missing: String? = nil
        let query: SQLQuery = "SELECT \(missing), \(true), \(Int64(-5))"
        #expect(query.sql == "SELECT $1, $2, $3")
        #expect(query.binds == [nil, "t", "-5"])
    }

    @Test func literalHasNoBinds() {
        let query: SQLQuery = "SELECT 1"
        #expect(query.binds.isEmpty)
        #expect(query.sql == "SELECT 1")
    }
}

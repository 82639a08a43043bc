import MailCore

/// Reads a `searches` table (`[searches]`, `[accounts.NAME.searches]`): every key a saved
/// search's name, every value a query that must parse, so a broken one is refused at start
/// with its line instead of failing each time it is listed.
enum SearchesParser {
    static func parse(_ table: TableReader?) throws(ConfigError) -> [SavedSearch] {
        guard let table else { return [] }
        guard table.table.count <= SavedSearch.maximumCount else {
            throw table.context.error(.invalidValue, at: table.key, "at most \(SavedSearch.maximumCount) saved searches")
        }
        var searches: [SavedSearch] = []
        for name in table.table.keys.sorted() {
            if let problem = SavedSearch.problem(withName: name) {
                throw table.error(.invalidValue, at: name, problem)
            }
            guard let query = try table.string(name, expected: "a search query") else { continue }
            do {
                _ = try SearchParser.parse(query)
            } catch {
                throw table.error(.invalidValue, at: name, "not a query mailfs can run: \(error)")
            }
            searches.append(SavedSearch(name: name, query: query))
        }
        return searches
    }
}

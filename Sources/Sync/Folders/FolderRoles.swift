import MailCore
import Store

/// Which folder plays which role, by raw server name. In order of strength: `trash_folder`
/// from the config (for Trash; when it names no folder, no folder is the Trash), a special-use attribute (RFC 6154) or the server's own
/// INBOX, then a well-known top-level name for a role no attribute claims (not on Gmail).
/// Two names for one role: the more usual name wins ("Trash" over "Deleted Items"), then
/// the first in server order; the other stays an ordinary folder.
enum FolderRoles {
    static func assign(_ candidates: [Candidate], rules: RoleRules) -> [String: FolderType] {
        var roles: [String: FolderType] = [:]
        let configuredTrash = rules.trashFolder.flatMap { name in
            candidates.first { $0.isSelectable && ($0.shownName == name || $0.customPath == name
                                                   || ModifiedUTF7.decode($0.folder.name) == name) }
        }
        for candidate in candidates {
            guard let role = FolderNaming.role(ofServerFolder: candidate.folder.name,
                                               attributes: candidate.folder.attributes) else { continue }
            roles[candidate.folder.name] = role
        }
        // A configured Trash that is missing is no Trash at all: mailfs does not guess
        // another folder against the user's word, and rm is refused until it exists.
        if rules.trashFolder != nil {
            for (name, role) in roles where role == .trash { roles[name] = nil }
            if let configuredTrash { roles[configuredTrash.folder.name] = .trash }
        }
        guard rules.byName else { return roles }
        var claimed = Set(roles.values)
        if rules.trashFolder != nil { claimed.insert(.trash) }
        var best: [FolderType: (rank: Int, name: String)] = [:]
        for candidate in candidates where candidate.isSelectable && roles[candidate.folder.name] == nil
            && candidate.components.count == 1 {
            guard let (role, rank) = FolderNaming.wellKnownRole(ofName: candidate.components[0]),
                  !claimed.contains(role) else { continue }
            if let current = best[role], current.rank <= rank { continue }
            best[role] = (rank, candidate.folder.name)
        }
        for (role, choice) in best { roles[choice.name] = role }
        return roles
    }
}

import Foundation
import MailCore
import MessageText
import Store

/// `threads/<thread>/conversation.txt`: the thread as one text (`ConversationRenderer`),
/// rendered from the store alone, never the network: a message whose text is not stored
/// says so and names its `.eml`. Its size is exact, so it is rendered when first asked
/// about (LOOKUP, GETATTR), not when its thread is listed (`find` renders nothing); the
/// text is held (`ConversationTexts`) for the READ that follows, and the kernel keeps it in
/// its page cache until the store changes what it shows (`conversationsDidChange`).
extension MailTree {
    static let conversationFileName = "conversation.txt"

    /// A thread directory's listing: its conversation, then its messages.
    func threadListing(_ threadId: Int64, messages: [MessageEntry]) -> Listing {
        let messageFiles = messageEntries(messages)
        guard !messages.isEmpty else { return Listing(messageFiles) }
        let conversation = DirectoryEntry(
            name: Self.conversationFileName,
            attributes: FileAttributes(inode: Node.RenderedFile.conversation(threadId).inode, kind: .regular,
                                       permissions: 0o400, linkCount: 1, size: 0, modified: settings.mountedAt),
            attributesAtLookup: true)
        return Listing([conversation] + messageFiles)
    }

    /// Read-only (0400), one link, the thread's latest date, the exact size of its text.
    func renderedAttributes(_ file: Node.RenderedFile) throws(FSError) -> FileAttributes {
        switch file {
        case .conversation(let threadId):
            guard let state = try storeCall({ try store.conversationState(threadId: threadId) }) else {
                throw FSError(ENOENT)
            }
            if let size = conversations.size(thread: threadId, version: state.version) {
                return conversationAttributes(state, size: size)
            }
            let (rendered, text) = try renderConversation(threadId)
            return conversationAttributes(rendered, size: text.count)
        }
    }

    private func conversationAttributes(_ state: ConversationState, size: Int) -> FileAttributes {
        FileAttributes(inode: Node.RenderedFile.conversation(state.threadId).inode, kind: .regular,
                       permissions: 0o400, linkCount: 1, size: UInt64(size), modified: state.latestDate)
    }

    /// The file's text now: held, else rendered.
    func renderedContent(_ file: Node.RenderedFile) throws(FSError) -> [UInt8] {
        switch file {
        case .conversation(let threadId):
            if let state = try storeCall({ try store.conversationState(threadId: threadId) }),
               let text = conversations.text(thread: threadId, version: state.version) {
                return text
            }
            return try renderConversation(threadId).text
        }
    }

    /// Renders a thread's conversation from one snapshot of its messages and holds it. One
    /// rendered while a store change was being noticed is rendered again (a few times at
    /// most): it may be of the snapshot before, and the kernel would keep it after the
    /// notice that dropped the old one.
    private func renderConversation(_ threadId: Int64) throws(FSError) -> (state: ConversationState, text: [UInt8]) {
        var attempts = 0
        while true {
            let generation = conversations.generation
            guard let conversation = try storeCall({ try store.conversation(threadId: threadId) }),
                  !conversation.messages.isEmpty else { throw FSError(ENOENT) }
            let text = try storeCall { try render(conversation) }
            attempts += 1
            let state = conversation.state
            if conversations.store(text, thread: threadId, version: state.version, builtIn: generation) || attempts == 3 {
                return (state, text)
            }
        }
    }

    /// Each message's text is read from the store when the renderer reaches it, so a long
    /// thread's raw messages are never held together.
    private func render(_ conversation: StoredConversation) throws -> [UInt8] {
        var failure: (any Error)?
        let members = conversation.messages
        let text = ConversationRenderer.render(members.map(Self.conversationMessage)) { index in
            do {
                return Self.messageBody(try store.conversationText(emailId: members[index].id))
            } catch {
                failure = error
                return .notStored
            }
        }
        if let failure { throw failure }
        return Array(text.utf8)
    }

    /// A message's heading, file and attachments (with their paths under attachments/) as
    /// the renderer takes them; its body is read later (`render`).
    static func conversationMessage(_ member: ConversationMember) -> ConversationMessage {
        let directory = "attachments/\(attachmentDirectoryName(member.fileName))/"
        let heading = MessageHeading(subject: member.subject, from: member.from, to: member.to, cc: member.cc,
                                     date: member.dateSent)
        return ConversationMessage(
            heading: heading, body: .notStored, fileName: member.fileName, isUnread: !member.isRead,
            attachments: member.attachments.map { attachment in
                MessageText.AttachmentEntry(name: attachment.fileName, mimeType: attachment.mimeType,
                                            size: Int(clamping: attachment.sizeBytes),
                                            path: directory + attachment.fileName)
            })
    }

    static func messageBody(_ text: StoredMessageText) -> MessageBody {
        switch text {
        case .raw(let raw): .raw(raw)
        case .texts(let plain, let html): .texts(plain: plain, html: html)
        case .notStored: .notStored
        }
    }

    /// At each store change, before listings are rebuilt: the conversations whose version
    /// moved are dropped here and from the kernel (attributes and cached pages). The size is
    /// not enough to go by: a message read turns "1 unread" into "0 unread" and leaves it.
    /// The store names the threads that changed, so this costs what changed, however many
    /// conversations were read before.
    func conversationsDidChange() {
        guard let changes = try? store.conversationChanges(since: conversations.lastVersion),
              !changes.threadIds.isEmpty else { return }
        conversations.drop(changes.threadIds, lastVersion: changes.latestVersion)
        guard let kernel = invalidator else { return }
        for threadId in changes.threadIds { kernel.invalidateInode(Node.RenderedFile.conversation(threadId).inode) }
    }
}

import CLibXML2
#if canImport(Glibc)
import Glibc
#endif

/// An HTML body parsed by libxml2's HTML parser, in memory, and walked node by node.
///
/// The parser recovers from anything (unclosed and misnested tags, stray `<`, broken
/// entities) the way browsers do, prints nothing, and never opens a file or the network:
/// no DTD or entity is loaded (`HTML_PARSE_NONET`), and the document's own `<meta charset>`
/// is ignored because the text handed over is already UTF-8. Without `XML_PARSE_HUGE` the
/// parser stops at 256 levels of nesting and drops the rest of the text; with it, the
/// input's own bound (a body is at most 10 MB) is the limit. The walk is iterative, so
/// hostile nesting costs no stack.
enum HTMLDocument {
    static let parseOptions = Int32(HTML_PARSE_RECOVER.rawValue | HTML_PARSE_NOERROR.rawValue
        | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue | HTML_PARSE_COMPACT.rawValue
        | HTML_PARSE_IGNORE_ENC.rawValue | HTML_PARSE_NODEFDTD.rawValue | XML_PARSE_HUGE.rawValue)

    /// libxml2's global state, set up once before the first parse (parsing itself is then
    /// safe from any thread, each call on its own document).
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// Parses `html` and walks it with `visitor`; false when libxml2 made no document
    /// (empty input).
    static func walk<Visitor: HTMLVisitor>(_ html: String, with visitor: inout Visitor) -> Bool {
        precondition(initialized)
        var source = html
        let document: htmlDocPtr? = source.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                htmlReadMemory(chars.baseAddress, Int32(clamping: chars.count), nil, "UTF-8", parseOptions)
            }
        }
        guard let document else { return false }
        defer { xmlFreeDoc(document) }
        let top = UnsafeMutableRawPointer(document).assumingMemoryBound(to: xmlNode.self)
        walk(from: top, with: &visitor)
        return true
    }

    /// Depth-first over the children of `top`: `enter` and `leave` around every element
    /// (`leave` also for one whose children `enter` declined), `text` for text and CDATA.
    private static func walk<Visitor: HTMLVisitor>(from top: xmlNodePtr, with visitor: inout Visitor) {
        var node = top.pointee.children
        while let current = node {
            if current.pointee.type == XML_ELEMENT_NODE {
                let element = HTMLElement(node: current)
                if visitor.enter(element), let child = current.pointee.children {
                    node = child
                    continue
                }
                visitor.leave(element)
            } else if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE {
                if let content = current.pointee.content {
                    visitor.text(UnsafeBufferPointer(start: content, count: cLength(content)))
                }
            }
            node = next(after: current, below: top, with: &visitor)
        }
    }

    /// The next node in document order after `node`'s subtree, leaving the elements it
    /// climbs out of; nil at the end of `top`.
    private static func next<Visitor: HTMLVisitor>(after node: xmlNodePtr, below top: xmlNodePtr,
                                                    with visitor: inout Visitor) -> xmlNodePtr? {
        var current = node
        while current.pointee.next == nil {
            guard let parent = current.pointee.parent, parent != top else { return nil }
            visitor.leave(HTMLElement(node: parent))
            current = parent
        }
        return current.pointee.next
    }
}

/// What walks an HTML document.
protocol HTMLVisitor {
    /// An element starts; false to skip its content.
    mutating func enter(_ element: HTMLElement) -> Bool
    mutating func leave(_ element: HTMLElement)
    /// Character data (entities decoded), UTF-8.
    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>)
}

/// One element of a parsed document, valid during the walk only.
struct HTMLElement {
    let node: xmlNodePtr

    /// The lower-case tag name (libxml2 lower-cases HTML names).
    var name: String {
        guard let name = node.pointee.name else { return "" }
        return String(cString: name)
    }

    /// The value of an attribute (lower-case name), entities decoded; nil when absent.
    func attribute(_ wanted: StaticString) -> String? {
        var attribute = node.pointee.properties
        while let current = attribute {
            if let name = current.pointee.name, cLength(name) == wanted.utf8CodeUnitCount,
               memcmp(name, wanted.utf8Start, wanted.utf8CodeUnitCount) == 0 {
                return Self.value(of: current)
            }
            attribute = current.pointee.next
        }
        return nil
    }

    /// An attribute's value: the text of its children (one text node in practice).
    private static func value(of attribute: xmlAttrPtr) -> String {
        var bytes: [UInt8] = []
        var child = attribute.pointee.children
        while let current = child {
            if let content = current.pointee.content {
                bytes.append(contentsOf: UnsafeBufferPointer(start: content, count: cLength(content)))
            }
            child = current.pointee.next
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The length of a NUL-terminated libxml2 string.
func cLength(_ text: UnsafePointer<xmlChar>) -> Int {
    strlen(UnsafeRawPointer(text).assumingMemoryBound(to: CChar.self))
}

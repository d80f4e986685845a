/// Why a document is not well-formed XML, and the line (from 1) where the reader found out.
public struct XMLError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong, each with words a person editing the file can act on.
  public enum Problem: Equatable, Sendable {
    /// Text or markup other than a comment or processing instruction before the root element.
    case noRootElement
    /// The file ends inside an element, tag, comment or section, or has more after its root element.
    case endsEarlyOrHasMore
    /// A control character, or bytes that are not UTF-8, in a name, text or an attribute value.
    case invalidCharacter
    /// `&name` without its `;`.
    case entityWithoutSemicolon
    /// `&name;` for an entity other than XML's five and numeric character references.
    case undefinedEntity
    case lessThanInAttributeValue
    case unquotedAttributeValue
    case unclosedAttributeValue
    case attributeWithoutValue
    case duplicateAttribute
    /// `<?xml …?>` anywhere but at the very start.
    case misplacedDeclaration
    case unclosedTag
    /// `&` or `<` followed by something that cannot start a name.
    case nameExpected
    case mismatchedClosingTag
    /// A prefix (`x:` in `x:name`) no `xmlns:x` in scope declares.
    case undeclaredPrefix
    /// Elements nested deeper than `XMLReader.maximumDepth`.
    case tooDeep
    /// A name, a text or CDATA run or an attribute value longer than `XMLReader.maximumValueBytes`
    /// (the message names that limit).
    case valueTooLong
    /// `--` inside a comment.
    case doubleHyphenInComment
    /// `]]>` in text, where only a CDATA section may end.
    case cdataEndInText
    /// `<!` followed by something other than a comment, CDATA section or (before the root) DOCTYPE.
    case unknownMarkup
  }

  public let problem: Problem
  public let line: Int

  public init(_ problem: Problem, line: Int) {
    self.problem = problem
    self.line = line
  }

  public var message: String {
    switch problem {
    case .noRootElement: "no root element (the file does not start like XML)"
    case .endsEarlyOrHasMore: "the document ends too early, or has more after its root element"
    case .invalidCharacter: "a character XML does not allow here (or text that is not UTF-8)"
    case .entityWithoutSemicolon: "an entity reference without its ';' (write a literal & as &amp;)"
    case .undefinedEntity: "an undefined entity (write a literal & as &amp;)"
    case .lessThanInAttributeValue: "'<' inside an attribute value (write it as &lt;)"
    case .unquotedAttributeValue: "an attribute value must be in quotes"
    case .unclosedAttributeValue: "an attribute value is missing its closing quote"
    case .attributeWithoutValue: "an attribute without a value"
    case .duplicateAttribute: "an attribute given twice in one tag"
    case .misplacedDeclaration: "the XML declaration (<?xml …?>) must be at the very start of the file"
    case .unclosedTag: "a tag is not closed with '>'"
    case .nameExpected: "'&' or '<' not followed by a name (write a literal & as &amp; and < as &lt;)"
    case .mismatchedClosingTag: "a closing tag does not match the element it closes"
    case .undeclaredPrefix: "a namespace prefix that is not declared"
    case .tooDeep: "elements nest more than \(XMLReader.maximumDepth) deep"
    case .valueTooLong:
      "a name, text or attribute value longer than \(XMLReader.maximumValueBytes >> 20) MiB, the most mymap reads"
    case .doubleHyphenInComment: "'--' inside a comment"
    case .cdataEndInText: "']]>' in text (write it as ]]&gt;)"
    case .unknownMarkup: "'<!' that starts no comment, CDATA section or DOCTYPE"
    }
  }

  public var description: String { "line \(line): \(message)" }
}

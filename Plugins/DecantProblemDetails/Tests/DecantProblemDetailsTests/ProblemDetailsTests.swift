import Decant
import DecantConformance
import DecantProblemDetails
import Foundation
import Testing

/// Helpers shared by the suites: a response from parts, and a problem's canonical form as compact JSON text.
enum Support {
    static func response(
        _ body: String, contentType: String? = "application/problem+json", status: Int = 200, url: String? = nil
    ) -> Response {
        response(Data(body.utf8), contentType: contentType, status: status, url: url)
    }

    static func response(
        _ body: Data, contentType: String? = "application/problem+json", status: Int = 200, url: String? = nil
    ) -> Response {
        var headers = HTTPHeaderFields()
        if let contentType { headers.set(contentType, for: "Content-Type") }
        return Response(status: status, headers: headers, body: body, url: url.flatMap(URL.init(string:)))
    }

    /// The canonical form of `problem`, compared as a JSON value (object members in any order).
    static func canonical(_ problem: ProblemDetails) throws -> JSONValue { try problem.conformanceValue() }

    /// Parses an expected canonical form typed into a test.
    static func json(_ text: String) throws -> JSONValue { try JSONParser().parse(text) }

    static let serializer = ProblemDetailsResponseSerializer()
}

@Suite struct RFCExampleTests {
    /// RFC 9457 §3, the first example (a 403 with the out-of-credit problem), typed from the RFC text. The expected
    /// form was computed with Python's `json.loads` and `urllib.parse.urljoin` (instance resolved against the URL).
    @Test func outOfCreditJSON() throws {
        let body = """
            {
             "type": "https://example.com/probs/out-of-credit",
             "title": "You do not have enough credit.",
             "detail": "Your current balance is 30, but that costs 50.",
             "instance": "/account/12345/msgs/abc",
             "balance": 30,
             "accounts": ["/account/12345",
                          "/account/67890"]
            }
            """
        let response = Support.response(body, status: 403, url: "https://example.com/account/12345/msgs")
        let problem = try Support.serializer.serialize(response)
        let expected = try Support.json(
            #"{"type": "https://example.com/probs/out-of-credit", "title": "You do not have enough credit.", "#
                + #""detail": "Your current balance is 30, but that costs 50.", "#
                + #""instance": "https://example.com/account/12345/msgs/abc", "#
                + #""extensions": {"balance": 30, "accounts": ["/account/12345", "/account/67890"]}}"#)
        #expect(try Support.canonical(problem) == expected)
        #expect(problem.status == nil)
        #expect(problem.extensions.map(\.name) == ["balance", "accounts"])
        #expect(problem[extension: "balance"]?.intValue == 30)
    }

    /// RFC 9457 §3, the validation example (an extension holding an array of objects), typed from the RFC text;
    /// expected form from Python's `json.loads`.
    @Test func validationErrorsJSON() throws {
        let body = """
            {
             "type": "https://example.net/validation-error",
             "title": "Your request is not valid.",
             "errors": [
                         {
                           "detail": "must be a positive integer",
                           "pointer": "#/age"
                         },
                         {
                           "detail": "must be 'green', 'red' or 'blue'",
                           "pointer": "#/profile/color"
                         }
                      ]
            }
            """
        let problem = try Support.serializer.serialize(Support.response(body, status: 422))
        let expected = try Support.json(
            #"{"type": "https://example.net/validation-error", "title": "Your request is not valid.", "extensions": "#
                + ##"{"errors": [{"detail": "must be a positive integer", "pointer": "#/age"}, "##
                + ##"{"detail": "must be 'green', 'red' or 'blue'", "pointer": "#/profile/color"}]}}"##)
        #expect(try Support.canonical(problem) == expected)
    }

    /// RFC 9457 Appendix B, the XML form of the out-of-credit example, typed from the RFC text. Expected form from
    /// Python's `xml.etree.ElementTree` with the documented mapping (text is a string, `i` children an array).
    @Test func outOfCreditXML() throws {
        let body = """
            <?xml version="1.0" encoding="UTF-8"?>
            <problem xmlns="urn:ietf:rfc:7807">
              <type>https://example.com/probs/out-of-credit</type>
              <title>You do not have enough credit.</title>
              <detail>Your current balance is 30, but that costs 50.</detail>
              <instance>https://example.net/account/12345/msgs/abc</instance>
              <balance>30</balance>
              <accounts>
                <i>https://example.net/account/12345</i>
                <i>https://example.net/account/67890</i>
              </accounts>
            </problem>
            """
        let problem = try Support.serializer.serialize(
            Support.response(body, contentType: "application/problem+xml", status: 403))
        let expected = try Support.json(
            #"{"type": "https://example.com/probs/out-of-credit", "title": "You do not have enough credit.", "#
                + #""detail": "Your current balance is 30, but that costs 50.", "#
                + #""instance": "https://example.net/account/12345/msgs/abc", "extensions": {"balance": "30", "#
                + #""accounts": ["https://example.net/account/12345", "https://example.net/account/67890"]}}"#)
        #expect(try Support.canonical(problem) == expected)
        #expect(problem.extensions.map(\.name) == ["balance", "accounts"])
    }

    /// The canonical form's members come in the documented order, absent ones left out.
    @Test func canonicalFormOrder() throws {
        let body = #"{"z": 1, "instance": "urn:x:1", "detail": "d", "status": 400, "title": "t", "type": "urn:t"}"#
        let problem = try Support.serializer.serialize(Support.response(body))
        #expect(try problem.conformanceValue().keys == ["type", "title", "status", "detail", "instance", "extensions"])
        let empty = try Support.serializer.serialize(Support.response("{}"))
        #expect(try empty.conformanceValue().keys == ["type"])
        #expect(empty.isAboutBlank)
    }
}

@Suite struct MemberTypeTests {
    /// RFC 9457 §3.1: "If a member's value type does not match the specified type, the member MUST be ignored".
    /// Expected forms computed with Python's `json.loads` and the §3.1 types (fixtures.py's `from_json`).
    @Test(arguments: [
        (#"{"status": "500"}"#, #"{"type": "about:blank"}"#),
        (#"{"title": 5}"#, #"{"type": "about:blank"}"#),
        (#"{"type": 42, "detail": false}"#, #"{"type": "about:blank"}"#),
        (#"{"instance": {"href": "/x"}, "title": null}"#, #"{"type": "about:blank"}"#),
        (#"{"status": true}"#, #"{"type": "about:blank"}"#),
        (#"{"status": 4.5e2}"#, #"{"type": "about:blank", "status": 450}"#),
        (#"{"status": 1e400}"#, #"{"type": "about:blank"}"#),
        (
            #"{"detail": ["a"], "status": 201, "x": "500"}"#,
            #"{"type": "about:blank", "status": 201, "extensions": {"x": "500"}}"#
        ),
    ])
    func wrongTypedMembersAreIgnored(body: String, expected: String) throws {
        let problem = try Support.serializer.serialize(Support.response(body))
        #expect(try Support.canonical(problem) == Support.json(expected))
    }

    /// A status beyond `Int` is ignored (a documented choice: Python would keep 18446744073709551616).
    @Test func statusBeyondIntIsIgnored() throws {
        let problem = try Support.serializer.serialize(Support.response(#"{"status": 18446744073709551616}"#))
        #expect(problem.status == nil)
    }

    /// XML members with the wrong content: a status that is not a positive integer, a title with child elements.
    @Test(arguments: ["0", "-5", "4 0 4", "abc", "", "404.0"])
    func xmlStatusMustBeAPositiveInteger(text: String) throws {
        let body = #"<problem xmlns="urn:ietf:rfc:7807"><status>\#(text)</status></problem>"#
        let problem = try Support.serializer.serialize(Support.response(body, contentType: "application/problem+xml"))
        #expect(problem.status == nil)
        #expect(problem.extensions.isEmpty)
    }

    @Test func xmlStatusAllowsWhitespaceAndPlus() throws {
        let body = "<problem xmlns=\"urn:ietf:rfc:7807\"><status>\n +503\t</status></problem>"
        let problem = try Support.serializer.serialize(Support.response(body, contentType: "application/problem+xml"))
        #expect(problem.status == 503)
    }

    /// A repeated XML member: the last one wins, and when it has the wrong content the member is absent (as Python's
    /// ElementTree reading in fixtures.py does).
    @Test func xmlRepeatedMembersKeepTheLast() throws {
        let body = """
            <problem xmlns="urn:ietf:rfc:7807"><type>urn:a</type><type><x/></type><status>400</status>\
            <status>x</status><title>one</title><title>two</title><instance>urn:i</instance></problem>
            """
        let problem = try Support.serializer.serialize(Support.response(body, contentType: "application/problem+xml"))
        #expect(problem.isAboutBlank)
        #expect(problem.status == nil)
        #expect(problem.title == "two")
        #expect(problem.instance?.absoluteString == "urn:i")
    }

    @Test func xmlTitleWithChildElementsIsIgnored() throws {
        let body = #"<problem xmlns="urn:ietf:rfc:7807"><title>a <b>b</b></title><detail> keep </detail></problem>"#
        let problem = try Support.serializer.serialize(Support.response(body, contentType: "application/problem+xml"))
        #expect(problem.title == nil)
        #expect(problem.detail == " keep ")
    }
}

@Suite struct ResolutionTests {
    /// Relative references resolved against the response URL (RFC 9457 §3.1.1, RFC 3986 §5.4's examples over the
    /// base `http://a/b/c/d;p?q`). Expected values from Python's `urllib.parse.urljoin`.
    @Test(arguments: [
        ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"),
        ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"), ("#s", "http://a/b/c/d;p?q#s"),
        ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"), (";x", "http://a/b/c/;x"),
        ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"), ("", "http://a/b/c/d;p?q"),
        ("..", "http://a/b/"), ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"),
        ("../../", "http://a/"), ("../../g", "http://a/g"), ("../../../g", "http://a/g"), ("/./g", "http://a/g"),
        ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"),
        ("g/../h", "http://a/b/c/h"), ("https://other.example/p", "https://other.example/p"),
    ])
    func typeAndInstanceAreResolved(reference: String, expected: String) throws {
        let body = #"{"type": "\#(reference)", "instance": "\#(reference)"}"#
        let problem = try Support.serializer.serialize(Support.response(body, url: "http://a/b/c/d;p?q"))
        #expect(problem.type.absoluteString == expected)
        #expect(problem.instance?.absoluteString == expected)
    }

    @Test func xmlReferencesAreResolvedToo() throws {
        let body = #"<problem xmlns="urn:ietf:rfc:7807"><type> ../probs/x </type><instance>7</instance></problem>"#
        let problem = try Support.serializer.serialize(
            Support.response(body, contentType: "application/problem+xml", url: "https://h.example/api/v1/orders/6"))
        // urljoin("https://h.example/api/v1/orders/6", "../probs/x") and (..., "7")
        #expect(problem.type.absoluteString == "https://h.example/api/v1/probs/x")
        #expect(problem.instance?.absoluteString == "https://h.example/api/v1/orders/7")
    }

    @Test func withoutAURLReferencesStayRelative() throws {
        let problem = try Support.serializer.serialize(Support.response(#"{"type": "/probs/x", "instance": "y"}"#))
        #expect(problem.type.absoluteString == "/probs/x")
        #expect(problem.instance?.absoluteString == "y")
    }

    @Test func anEmptyTypeWithoutAURLIsAboutBlank() throws {
        let problem = try Support.serializer.serialize(Support.response(#"{"type": "", "instance": ""}"#))
        #expect(problem.isAboutBlank)
        #expect(problem.instance == nil)
    }
}

@Suite struct ExtensionTests {
    @Test func extensionsKeepDocumentOrder() throws {
        let body =
            #"{"zeta": 1, "type": "urn:t", "alpha": [true], "mid": {"b": 1, "a": 2}, "title": "t", "omega": null}"#
        let problem = try Support.serializer.serialize(Support.response(body))
        #expect(problem.extensions.map(\.name) == ["zeta", "alpha", "mid", "omega"])
        #expect(problem[extension: "mid"]?.keys == ["b", "a"])
        #expect(problem[extension: "omega"]?.isNull == true)
        #expect(try problem.conformanceValue()["extensions"]?.keys == ["zeta", "alpha", "mid", "omega"])
    }

    /// A repeated member keeps its last value at its first position, as Python's `json.loads` does (dict order).
    @Test func duplicateMembersKeepTheLastValue() throws {
        let body = #"{"b": 1, "a": 2, "b": 3, "title": "x", "title": "y"}"#
        let problem = try Support.serializer.serialize(Support.response(body))
        #expect(problem.extensions.map(\.name) == ["b", "a"])
        #expect(problem[extension: "b"]?.intValue == 3)
        #expect(problem.title == "y")
    }

    @Test func xmlExtensionsMapToStringsArraysAndObjects() throws {
        let body = """
            <problem xmlns="urn:ietf:rfc:7807" xmlns:o="urn:other">
              <z>last<!-- comment --> word</z>
              <list><i>1</i><i><k>v</k></i><i/></list>
              <obj a="ignored"><y>2</y><x><i>deep</i></x><y>3</y><o:foreign>no</o:foreign></obj>
              <o:skipped><title>not a member</title></o:skipped>
              <esc>"quote" \\ tab\t&#10;</esc>
            </problem>
            """
        let problem = try Support.serializer.serialize(Support.response(body, contentType: "application/problem+xml"))
        #expect(problem.extensions.map(\.name) == ["z", "list", "obj", "esc"])
        #expect(problem.title == nil)
        // Expected values from Python's xml.etree.ElementTree with the documented mapping.
        let expected = try Support.json(
            #"{"z": "last word", "list": ["1", {"k": "v"}, ""], "obj": {"y": "3", "x": ["deep"]}, "#
                + #""esc": "\"quote\" \\ tab\t\n"}"#)
        #expect(problem.extensionObject == expected)
    }
}

// Generated at authoring time from CPython's plistlib (3.x) over the swift-foundation test resources below 40 KB
// that plistlib reads, with this script (run in the Resources folder); it converts each value to the typed JSON of
// the conformance corpora:
//
//     import plistlib, json, base64, datetime, glob, os
//     def conv(v):
//         if isinstance(v, dict): return {"dict": {k: conv(x) for k, x in v.items()}}
//         if isinstance(v, list): return {"array": [conv(x) for x in v]}
//         if isinstance(v, str): return {"string": v}
//         if isinstance(v, bool): return {"bool": v}
//         if isinstance(v, int): return {"integer": str(v)}
//         if isinstance(v, float): return {"real": repr(v)}
//         if isinstance(v, datetime.datetime): return {"date": v.isoformat()}
//         if isinstance(v, bytes): return {"data_base64": base64.b64encode(v).decode()}
//         if isinstance(v, plistlib.UID): return {"uid": v.data}
//     for path in sorted(glob.glob('**/*.plist', recursive=True)):
//         if os.path.getsize(path) <= 40000: print(path, json.dumps(conv(plistlib.load(open(path, 'rb')))))

/// The value CPython's `plistlib` reads from each swift-foundation resource, in typed canonical JSON.
enum FoundationResourceExpectations {
    /// Path below the Resources folder, and the expected typed JSON in pieces (joined, they are the JSON text).
    static let values: [(path: String, chunks: [String])] = [
        (
            "Generic_XML_Properties.plist",
            [
                ##"{"dict":{"array1":{"array":[{"string":"arr0"},{"integer":"42"},{"bool":false},{"date":"1976-04-0"##,
                ##"1T12:00:00"},{"data_base64":"qrvM3QARIjM="}]},"item1":{"string":"value1"},"item2":{"string":"val"##,
                ##"ue2"}}}"##,
            ]
        ),
        (
            "Generic_XML_Properties_Binary.plist",
            [
                ##"{"dict":{"array1":{"array":[{"string":"arr0"},{"integer":"42"},{"bool":false},{"date":"1976-04-0"##,
                ##"1T12:00:00"},{"data_base64":"qrvM3QARIjM="}]},"item1":{"string":"value1"},"item2":{"string":"val"##,
                ##"ue2"}}}"##,
            ]
        ),
        (
            "JSON/pass/pass1-utf16be.plist",
            [
                ##"{"dict":{"glossary":{"dict":{"GlossDiv":{"dict":{"GlossList":{"dict":{"GlossEntry":{"dict":{"Abb"##,
                ##"rev":{"string":"ISO 8879:1986"},"Acronym":{"string":"SGML"},"GlossDef":{"dict":{"GlossSeeAlso":{"##,
                ##""array":[{"string":"GML"},{"string":"XML"}]},"para":{"string":"A meta-markup language, used to c"##,
                ##"reate markup languages such as DocBook."}}},"GlossSee":{"string":"markup"},"GlossTerm":{"string""##,
                ##":"Standard Generalized Markup Language"},"ID":{"string":"SGML"},"SortAs":{"string":"SGML"}}}}},""##,
                ##"title":{"string":"S"}}},"title":{"string":"example glossary"}}}}}"##,
            ]
        ),
        (
            "JSON/pass/pass1-utf16le.plist",
            [
                ##"{"dict":{"glossary":{"dict":{"GlossDiv":{"dict":{"GlossList":{"dict":{"GlossEntry":{"dict":{"Abb"##,
                ##"rev":{"string":"ISO 8879:1986"},"Acronym":{"string":"SGML"},"GlossDef":{"dict":{"GlossSeeAlso":{"##,
                ##""array":[{"string":"GML"},{"string":"XML"}]},"para":{"string":"A meta-markup language, used to c"##,
                ##"reate markup languages such as DocBook."}}},"GlossSee":{"string":"markup"},"GlossTerm":{"string""##,
                ##":"Standard Generalized Markup Language"},"ID":{"string":"SGML"},"SortAs":{"string":"SGML"}}}}},""##,
                ##"title":{"string":"S"}}},"title":{"string":"example glossary"}}}}}"##,
            ]
        ),
        (
            "JSON/pass/pass1-utf32be.plist",
            [
                ##"{"dict":{"glossary":{"dict":{"GlossDiv":{"dict":{"GlossList":{"dict":{"GlossEntry":{"dict":{"Abb"##,
                ##"rev":{"string":"ISO 8879:1986"},"Acronym":{"string":"SGML"},"GlossDef":{"dict":{"GlossSeeAlso":{"##,
                ##""array":[{"string":"GML"},{"string":"XML"}]},"para":{"string":"A meta-markup language, used to c"##,
                ##"reate markup languages such as DocBook."}}},"GlossSee":{"string":"markup"},"GlossTerm":{"string""##,
                ##":"Standard Generalized Markup Language"},"ID":{"string":"SGML"},"SortAs":{"string":"SGML"}}}}},""##,
                ##"title":{"string":"S"}}},"title":{"string":"example glossary"}}}}}"##,
            ]
        ),
        (
            "JSON/pass/pass1-utf32le.plist",
            [
                ##"{"dict":{"glossary":{"dict":{"GlossDiv":{"dict":{"GlossList":{"dict":{"GlossEntry":{"dict":{"Abb"##,
                ##"rev":{"string":"ISO 8879:1986"},"Acronym":{"string":"SGML"},"GlossDef":{"dict":{"GlossSeeAlso":{"##,
                ##""array":[{"string":"GML"},{"string":"XML"}]},"para":{"string":"A meta-markup language, used to c"##,
                ##"reate markup languages such as DocBook."}}},"GlossSee":{"string":"markup"},"GlossTerm":{"string""##,
                ##":"Standard Generalized Markup Language"},"ID":{"string":"SGML"},"SortAs":{"string":"SGML"}}}}},""##,
                ##"title":{"string":"S"}}},"title":{"string":"example glossary"}}}}}"##,
            ]
        ),
        (
            "JSON/pass/pass1-utf8.plist",
            [
                ##"{"dict":{"glossary":{"dict":{"GlossDiv":{"dict":{"GlossList":{"dict":{"GlossEntry":{"dict":{"Abb"##,
                ##"rev":{"string":"ISO 8879:1986"},"Acronym":{"string":"SGML"},"GlossDef":{"dict":{"GlossSeeAlso":{"##,
                ##""array":[{"string":"GML"},{"string":"XML"}]},"para":{"string":"A meta-markup language, used to c"##,
                ##"reate markup languages such as DocBook."}}},"GlossSee":{"string":"markup"},"GlossTerm":{"string""##,
                ##":"Standard Generalized Markup Language"},"ID":{"string":"SGML"},"SortAs":{"string":"SGML"}}}}},""##,
                ##"title":{"string":"S"}}},"title":{"string":"example glossary"}}}}}"##,
            ]
        ),
        (
            "JSON/pass/pass13.plist",
            [
                ##"{"dict":{"a":{"integer":"1"}}}"##
            ]
        ),
        (
            "JSON/pass/pass14.plist",
            [
                ##"{"dict":{"a2":{"dict":{"x":{"dict":{"abcdef/":{"string":"c"}}}}},"abcdefg":{"dict":{"y":{"dict":"##,
                ##"{"abcdef/":{"string":"a"},"abcdefg":{"string":"b"}}}}}}}"##,
            ]
        ),
        (
            "JSON/pass/pass2.plist",
            [
                ##"{"dict":{"menu":{"dict":{"id":{"string":"file"},"popup":{"dict":{"menuitem":{"array":[{"dict":{""##,
                ##"onclick":{"string":"CreateNewDoc()"},"value":{"string":"New"}}},{"dict":{"onclick":{"string":"Op"##,
                ##"enDoc()"},"value":{"string":"Open"}}},{"dict":{"onclick":{"string":"CloseDoc()"},"value":{"strin"##,
                ##"g":"Close"}}}]}}},"value":{"string":"File"}}}}}"##,
            ]
        ),
        (
            "JSON/pass/pass3.plist",
            [
                ##"{"dict":{"widget":{"dict":{"debug":{"string":"on"},"image":{"dict":{"alignment":{"string":"cente"##,
                ##"r"},"hOffset":{"real":"250.0"},"name":{"string":"sun1"},"src":{"string":"Images/Sun.png"},"vOffs"##,
                ##"et":{"real":"250.0"}}},"text":{"dict":{"alignment":{"string":"center"},"data":{"string":"Click H"##,
                ##"ere"},"hOffset":{"real":"250.0"},"name":{"string":"text1"},"onMouseUp":{"string":"sun1.opacity ="##,
                ##" (sun1.opacity / 100) * 90;"},"size":{"real":"36.0"},"style":{"string":"bold"},"vOffset":{"real""##,
                ##":"100.0"}}},"window":{"dict":{"height":{"real":"500.0"},"name":{"string":"main_window"},"title":"##,
                ##"{"string":"Sample Konfabulator Widget"},"width":{"real":"500.0"}}}}}}}"##,
            ]
        ),
        (
            "JSON/pass/pass4.plist",
            [
                ##"{"dict":{"web-app":{"dict":{"servlet":{"array":[{"dict":{"init-param":{"dict":{"cachePackageTags"##,
                ##"Refresh":{"real":"60.0"},"cachePackageTagsStore":{"real":"200.0"},"cachePackageTagsTrack":{"real"##,
                ##"":"200.0"},"cachePagesDirtyRead":{"real":"10.0"},"cachePagesRefresh":{"real":"10.0"},"cachePages"##,
                ##"Store":{"real":"100.0"},"cachePagesTrack":{"real":"200.0"},"cacheTemplatesRefresh":{"real":"15.0"##,
                ##""},"cacheTemplatesStore":{"real":"50.0"},"cacheTemplatesTrack":{"real":"100.0"},"configGlossary:"##,
                ##"adminEmail":{"string":"ksm@pobox.com"},"configGlossary:installationAt":{"string":"Philadelphia, "##,
                ##"PA"},"configGlossary:poweredBy":{"string":"Cofax"},"configGlossary:poweredByIcon":{"string":"/im"##,
                ##"ages/cofax.gif"},"configGlossary:staticPath":{"string":"/content/static"},"dataStoreClass":{"str"##,
                ##"ing":"org.cofax.SqlDataStore"},"dataStoreConnUsageLimit":{"real":"100.0"},"dataStoreDriver":{"st"##,
                ##"ring":"com.microsoft.jdbc.sqlserver.SQLServerDriver"},"dataStoreInitConns":{"real":"10.0"},"data"##,
                ##"StoreLogFile":{"string":"/usr/local/tomcat/logs/datastore.log"},"dataStoreLogLevel":{"string":"d"##,
                ##"ebug"},"dataStoreMaxConns":{"real":"100.0"},"dataStoreName":{"string":"cofax"},"dataStorePasswor"##,
                ##"d":{"string":"dataStoreTestQuery"},"dataStoreTestQuery":{"string":"SET NOCOUNT ON;select test='t"##,
                ##"est';"},"dataStoreUrl":{"string":"jdbc:microsoft:sqlserver://LOCALHOST:1433;DatabaseName=goon"},"##,
                ##""dataStoreUser":{"string":"sa"},"defaultFileTemplate":{"string":"articleTemplate.htm"},"defaultL"##,
                ##"istTemplate":{"string":"listTemplate.htm"},"jspFileTemplate":{"string":"articleTemplate.jsp"},"j"##,
                ##"spListTemplate":{"string":"listTemplate.jsp"},"maxUrlLength":{"real":"500.0"},"redirectionClass""##,
                ##":{"string":"org.cofax.SqlRedirection"},"searchEngineFileTemplate":{"string":"forSearchEngines.ht"##,
                ##"m"},"searchEngineListTemplate":{"string":"forSearchEnginesList.htm"},"searchEngineRobotsDb":{"st"##,
                ##"ring":"WEB-INF/robots.db"},"templateLoaderClass":{"string":"org.cofax.FilesTemplateLoader"},"tem"##,
                ##"plateOverridePath":{"string":""},"templatePath":{"string":"templates"},"templateProcessorClass":"##,
                ##"{"string":"org.cofax.WysiwygTemplate"},"useDataStore":{"bool":true},"useJSP":{"bool":false}}},"s"##,
                ##"ervlet-class":{"string":"org.cofax.cds.CDSServlet"},"servlet-name":{"string":"cofaxCDS"}}},{"dic"##,
                ##"t":{"init-param":{"dict":{"mailHost":{"string":"mail1"},"mailHostOverride":{"string":"mail2"}}},"##,
                ##""servlet-class":{"string":"org.cofax.cds.EmailServlet"},"servlet-name":{"string":"cofaxEmail"}}}"##,
                ##",{"dict":{"servlet-class":{"string":"org.cofax.cds.AdminServlet"},"servlet-name":{"string":"cofa"##,
                ##"xAdmin"}}},{"dict":{"servlet-class":{"string":"org.cofax.cds.FileServlet"},"servlet-name":{"stri"##,
                ##"ng":"fileServlet"}}},{"dict":{"init-param":{"dict":{"adminGroupID":{"real":"4.0"},"betaServer":{"##,
                ##""bool":true},"dataLog":{"real":"1.0"},"dataLogLocation":{"string":"/usr/local/tomcat/logs/dataLo"##,
                ##"g.log"},"dataLogMaxSize":{"string":""},"fileTransferFolder":{"string":"/usr/local/tomcat/webapps"##,
                ##"/content/fileTransferFolder"},"log":{"real":"1.0"},"logLocation":{"string":"/usr/local/tomcat/lo"##,
                ##"gs/CofaxTools.log"},"logMaxSize":{"string":""},"lookInContext":{"real":"1.0"},"removePageCache":"##,
                ##"{"string":"/content/admin/remove?cache=pages&id="},"removeTemplateCache":{"string":"/content/adm"##,
                ##"in/remove?cache=templates&id="},"templatePath":{"string":"toolstemplates/"}}},"servlet-class":{""##,
                ##"string":"org.cofax.cms.CofaxToolsServlet"},"servlet-name":{"string":"cofaxTools"}}}]},"servlet-m"##,
                ##"apping":{"dict":{"cofaxAdmin":{"string":"/admin/*"},"cofaxCDS":{"string":"/"},"cofaxEmail":{"str"##,
                ##"ing":"/cofaxutil/aemail/*"},"cofaxTools":{"string":"/tools/*"},"fileServlet":{"string":"/static/"##,
                ##"*"}}},"taglib":{"dict":{"taglib-location":{"string":"/WEB-INF/tlds/cofax.tld"},"taglib-uri":{"st"##,
                ##"ring":"cofax.tld"}}}}}}}"##,
            ]
        ),
        (
            "JSON/pass/pass5.plist",
            [
                ##"{"dict":{"Image":{"dict":{"Height":{"real":"600.0"},"IDs":{"array":[{"real":"116.0"},{"real":"94"##,
                ##"3.0"},{"real":"234.0"},{"real":"38793.0"}]},"Thumbnail":{"dict":{"Height":{"real":"125.0"},"Url""##,
                ##":{"string":"http://www.example.com/image/481989943"},"Width":{"string":"100"}}},"Title":{"string"##,
                ##"":"View from 15th Floor"},"Width":{"real":"800.0"}}}}}"##,
            ]
        ),
        (
            "JSON/pass/pass6.plist",
            [
                ##"{"array":[{"dict":{"Address":{"string":""},"City":{"string":"SAN FRANCISCO"},"Country":{"string""##,
                ##":"US"},"Latitude":{"real":"37.7668"},"Longitude":{"real":"-122.39590000000001"},"State":{"string"##,
                ##"":"CA"},"Zip":{"string":"94107"},"precision":{"string":"zip"}}},{"dict":{"Address":{"string":""}"##,
                ##","City":{"string":"SUNNYVALE"},"Country":{"string":"US"},"Latitude":{"real":"37.371991"},"Longit"##,
                ##"ude":{"real":"-122.02601999999999"},"State":{"string":"CA"},"Zip":{"string":"94085"},"precision""##,
                ##":{"string":"zip"}}}]}"##,
            ]
        ),
        (
            "JSON5/pass/hex.plist",
            [
                ##"{"dict":{"out":{"array":[{"integer":"1"},{"integer":"16"},{"integer":"15"},{"integer":"15"},{"in"##,
                ##"teger":"-10"},{"integer":"-1"},{"integer":"-16"},{"integer":"10"},{"integer":"12"}]},"in":{"arra"##,
                ##"y":[{"integer":"1"},{"integer":"16"},{"integer":"15"},{"integer":"15"},{"integer":"-10"},{"integ"##,
                ##"er":"-1"},{"integer":"-16"},{"integer":"10"},{"integer":"12"}]}}}"##,
            ]
        ),
        (
            "JSON5/pass/numbers.plist",
            [
                ##"{"dict":{"a":{"real":"0.0123"},"b":{"real":"0.0123"},"c":{"integer":"10"},"d":{"integer":"10"}}}"##
            ]
        ),
        (
            "JSON5/pass/strings.plist",
            [
                ##"{"dict":{"Hello":{"string":"World"},"Hello2":{"string":"World2"},"Hello3":{"string":"World3"},"h"##,
                ##"ex1":{"string":"hiz"},"hex2":{"string":"hizzza"}}}"##,
            ]
        ),
        (
            "JSON5/pass/whitespace.plist",
            [
                ##"{"dict":{"Hello":{"string":"World"}}}"##
            ]
        ),
        (
            "test_oldStylePlist_getSlashedChars_octal_expected.plist",
            [
                ##"{"array":[{"string":"\u0000"},{"string":"\u0000"},{"string":"\u0000"},{"string":"\u0001"},{"stri"##,
                ##"ng":"\u0001"},{"string":"\u0001"},{"string":"\u0002"},{"string":"\u0002"},{"string":"\u0002"},{""##,
                ##"string":"\u0003"},{"string":"\u0003"},{"string":"\u0003"},{"string":"\u0004"},{"string":"\u0004""##,
                ##"},{"string":"\u0004"},{"string":"\u0005"},{"string":"\u0005"},{"string":"\u0005"},{"string":""##,
                ##"\u0006"},{"string":"\u0006"},{"string":"\u0006"},{"string":"\u0007"},{"string":"\u0007"},{"strin"##,
                ##"g":"\u0007"},{"string":"\b"},{"string":"\b"},{"string":"\t"},{"string":"\t"},{"string":"\n"},{"s"##,
                ##"tring":"\n"},{"string":"\u000b"},{"string":"\u000b"},{"string":"\f"},{"string":"\f"},{"string":""##,
                ##"\r"},{"string":"\r"},{"string":"\u000e"},{"string":"\u000e"},{"string":"\u000f"},{"string":""##,
                ##"\u000f"},{"string":"\u0010"},{"string":"\u0010"},{"string":"\u0011"},{"string":"\u0011"},{"strin"##,
                ##"g":"\u0012"},{"string":"\u0012"},{"string":"\u0013"},{"string":"\u0013"},{"string":"\u0014"},{"s"##,
                ##"tring":"\u0014"},{"string":"\u0015"},{"string":"\u0015"},{"string":"\u0016"},{"string":"\u0016"}"##,
                ##",{"string":"\u0017"},{"string":"\u0017"},{"string":"\u0018"},{"string":"\u0018"},{"string":""##,
                ##"\u0019"},{"string":"\u0019"},{"string":"\u001a"},{"string":"\u001a"},{"string":"\u001b"},{"strin"##,
                ##"g":"\u001b"},{"string":"\u001c"},{"string":"\u001c"},{"string":"\u001d"},{"string":"\u001d"},{"s"##,
                ##"tring":"\u001e"},{"string":"\u001e"},{"string":"\u001f"},{"string":"\u001f"},{"string":" "},{"st"##,
                ##"ring":" "},{"string":"!"},{"string":"!"},{"string":"\""},{"string":"\""},{"string":"#"},{"string"##,
                ##"":"#"},{"string":"$"},{"string":"$"},{"string":"%"},{"string":"%"},{"string":"&"},{"string":"&"}"##,
                ##",{"string":"'"},{"string":"'"},{"string":"("},{"string":"("},{"string":")"},{"string":")"},{"str"##,
                ##"ing":"*"},{"string":"*"},{"string":"+"},{"string":"+"},{"string":","},{"string":","},{"string":""##,
                ##"-"},{"string":"-"},{"string":"."},{"string":"."},{"string":"/"},{"string":"/"},{"string":"0"},{""##,
                ##"string":"0"},{"string":"1"},{"string":"1"},{"string":"2"},{"string":"2"},{"string":"3"},{"string"##,
                ##"":"3"},{"string":"4"},{"string":"4"},{"string":"5"},{"string":"5"},{"string":"6"},{"string":"6"}"##,
                ##",{"string":"7"},{"string":"7"},{"string":"8"},{"string":"8"},{"string":"9"},{"string":"9"},{"str"##,
                ##"ing":":"},{"string":":"},{"string":";"},{"string":";"},{"string":"<"},{"string":"<"},{"string":""##,
                ##"="},{"string":"="},{"string":">"},{"string":">"},{"string":"?"},{"string":"?"},{"string":"@"},{""##,
                ##"string":"A"},{"string":"B"},{"string":"C"},{"string":"D"},{"string":"E"},{"string":"F"},{"string"##,
                ##"":"G"},{"string":"H"},{"string":"I"},{"string":"J"},{"string":"K"},{"string":"L"},{"string":"M"}"##,
                ##",{"string":"N"},{"string":"O"},{"string":"P"},{"string":"Q"},{"string":"R"},{"string":"S"},{"str"##,
                ##"ing":"T"},{"string":"U"},{"string":"V"},{"string":"W"},{"string":"X"},{"string":"Y"},{"string":""##,
                ##"Z"},{"string":"["},{"string":"\\"},{"string":"]"},{"string":"^"},{"string":"_"},{"string":"`"},{"##,
                ##""string":"a"},{"string":"b"},{"string":"c"},{"string":"d"},{"string":"e"},{"string":"f"},{"strin"##,
                ##"g":"g"},{"string":"h"},{"string":"i"},{"string":"j"},{"string":"k"},{"string":"l"},{"string":"m""##,
                ##"},{"string":"n"},{"string":"o"},{"string":"p"},{"string":"q"},{"string":"r"},{"string":"s"},{"st"##,
                ##"ring":"t"},{"string":"u"},{"string":"v"},{"string":"w"},{"string":"x"},{"string":"y"},{"string":"##,
                ##""z"},{"string":"{"},{"string":"|"},{"string":"}"},{"string":"~"},{"string":"\u007f"},{"string":""##,
                ##"\u00a0"},{"string":"\u00c0"},{"string":"\u00c1"},{"string":"\u00c2"},{"string":"\u00c3"},{"strin"##,
                ##"g":"\u00c4"},{"string":"\u00c5"},{"string":"\u00c7"},{"string":"\u00c8"},{"string":"\u00c9"},{"s"##,
                ##"tring":"\u00ca"},{"string":"\u00cb"},{"string":"\u00cc"},{"string":"\u00cd"},{"string":"\u00ce"}"##,
                ##",{"string":"\u00cf"},{"string":"\u00d0"},{"string":"\u00d1"},{"string":"\u00d2"},{"string":""##,
                ##"\u00d3"},{"string":"\u00d4"},{"string":"\u00d5"},{"string":"\u00d6"},{"string":"\u00d9"},{"strin"##,
                ##"g":"\u00da"},{"string":"\u00db"},{"string":"\u00dc"},{"string":"\u00dd"},{"string":"\u00de"},{"s"##,
                ##"tring":"\u00b5"},{"string":"\u00d7"},{"string":"\u00f7"},{"string":"\u00a9"},{"string":"\u00a1"}"##,
                ##",{"string":"\u00a2"},{"string":"\u00a3"},{"string":"\u2044"},{"string":"\u00a5"},{"string":""##,
                ##"\u0192"},{"string":"\u00a7"},{"string":"\u00a4"},{"string":"\u2019"},{"string":"\u201c"},{"strin"##,
                ##"g":"\u00ab"},{"string":"\u2039"},{"string":"\u203a"},{"string":"\ufb01"},{"string":"\ufb02"},{"s"##,
                ##"tring":"\u00ae"},{"string":"\u2013"},{"string":"\u2020"},{"string":"\u2021"},{"string":"\u00b7"}"##,
                ##",{"string":"\u00a6"},{"string":"\u00b6"},{"string":"\u2022"},{"string":"\u201a"},{"string":""##,
                ##"\u201e"},{"string":"\u201d"},{"string":"\u00bb"},{"string":"\u2026"},{"string":"\u2030"},{"strin"##,
                ##"g":"\u00ac"},{"string":"\u00bf"},{"string":"\u00b9"},{"string":"\u02cb"},{"string":"\u00b4"},{"s"##,
                ##"tring":"\u02c6"},{"string":"\u02dc"},{"string":"\u00af"},{"string":"\u02d8"},{"string":"\u02d9"}"##,
                ##",{"string":"\u00a8"},{"string":"\u00b2"},{"string":"\u02da"},{"string":"\u00b8"},{"string":""##,
                ##"\u00b3"},{"string":"\u02dd"},{"string":"\u02db"},{"string":"\u02c7"},{"string":"\u2014"},{"strin"##,
                ##"g":"\u00b1"},{"string":"\u00bc"},{"string":"\u00bd"},{"string":"\u00be"},{"string":"\u00e0"},{"s"##,
                ##"tring":"\u00e1"},{"string":"\u00e2"},{"string":"\u00e3"},{"string":"\u00e4"},{"string":"\u00e5"}"##,
                ##",{"string":"\u00e7"},{"string":"\u00e8"},{"string":"\u00e9"},{"string":"\u00ea"},{"string":""##,
                ##"\u00eb"},{"string":"\u00ec"},{"string":"\u00c6"},{"string":"\u00ed"},{"string":"\u00aa"},{"strin"##,
                ##"g":"\u00ee"},{"string":"\u00ef"},{"string":"\u00f0"},{"string":"\u00f1"},{"string":"\u0141"},{"s"##,
                ##"tring":"\u00d8"},{"string":"\u0152"},{"string":"\u00ba"},{"string":"\u00f2"},{"string":"\u00f3"}"##,
                ##",{"string":"\u00f4"},{"string":"\u00f5"},{"string":"\u00f6"},{"string":"\u00e6"},{"string":""##,
                ##"\u00f9"},{"string":"\u00fa"},{"string":"\u00fb"},{"string":"\u0131"},{"string":"\u00fc"},{"strin"##,
                ##"g":"\u00fd"},{"string":"\u0142"},{"string":"\u00f8"},{"string":"\u0153"},{"string":"\u00df"},{"s"##,
                ##"tring":"\u00fe"},{"string":"\u00ff"},{"string":"\u0000"},{"string":"\u0001"},{"string":"\u0002"}"##,
                ##",{"string":"\u0003"},{"string":"\u0004"},{"string":"\u0005"},{"string":"\u0006"},{"string":""##,
                ##"\u0007"},{"string":"\b"},{"string":"\t"},{"string":"\n"},{"string":"\u000b"},{"string":"\f"},{"s"##,
                ##"tring":"\r"},{"string":"\u000e"},{"string":"\u000f"},{"string":"\u0010"},{"string":"\u0011"},{"s"##,
                ##"tring":"\u0012"},{"string":"\u0013"},{"string":"\u0014"},{"string":"\u0015"},{"string":"\u0016"}"##,
                ##",{"string":"\u0017"},{"string":"\u0018"},{"string":"\u0019"},{"string":"\u001a"},{"string":""##,
                ##"\u001b"},{"string":"\u001c"},{"string":"\u001d"},{"string":"\u001e"},{"string":"\u001f"},{"strin"##,
                ##"g":" "},{"string":"!"},{"string":"\""},{"string":"#"},{"string":"$"},{"string":"%"},{"string":"&"##,
                ##""},{"string":"'"},{"string":"("},{"string":")"},{"string":"*"},{"string":"+"},{"string":","},{"s"##,
                ##"tring":"-"},{"string":"."},{"string":"/"},{"string":"0"},{"string":"1"},{"string":"2"},{"string""##,
                ##":"3"},{"string":"4"},{"string":"5"},{"string":"6"},{"string":"7"},{"string":"8"},{"string":"9"},"##,
                ##"{"string":":"},{"string":";"},{"string":"<"},{"string":"="},{"string":">"},{"string":"?"},{"stri"##,
                ##"ng":"@"},{"string":"A"},{"string":"B"},{"string":"C"},{"string":"D"},{"string":"E"},{"string":"F"##,
                ##""},{"string":"G"},{"string":"H"},{"string":"I"},{"string":"J"},{"string":"K"},{"string":"L"},{"s"##,
                ##"tring":"M"},{"string":"N"},{"string":"O"},{"string":"P"},{"string":"Q"},{"string":"R"},{"string""##,
                ##":"S"},{"string":"T"},{"string":"U"},{"string":"V"},{"string":"W"},{"string":"X"},{"string":"Y"},"##,
                ##"{"string":"Z"},{"string":"["},{"string":"\\"},{"string":"]"},{"string":"^"},{"string":"_"},{"str"##,
                ##"ing":"`"},{"string":"a"},{"string":"b"},{"string":"c"},{"string":"d"},{"string":"e"},{"string":""##,
                ##"f"},{"string":"g"},{"string":"h"},{"string":"i"},{"string":"j"},{"string":"k"},{"string":"l"},{""##,
                ##"string":"m"},{"string":"n"},{"string":"o"},{"string":"p"},{"string":"q"},{"string":"r"},{"string"##,
                ##"":"s"},{"string":"t"},{"string":"u"},{"string":"v"},{"string":"w"},{"string":"x"},{"string":"y"}"##,
                ##",{"string":"z"},{"string":"{"},{"string":"|"},{"string":"}"},{"string":"~"},{"string":"\u007f"},"##,
                ##"{"string":"\u00a0"},{"string":"\u00c0"},{"string":"\u00c1"},{"string":"\u00c2"},{"string":""##,
                ##"\u00c3"},{"string":"\u00c4"},{"string":"\u00c5"},{"string":"\u00c7"},{"string":"\u00c8"},{"strin"##,
                ##"g":"\u00c9"},{"string":"\u00ca"},{"string":"\u00cb"},{"string":"\u00cc"},{"string":"\u00cd"},{"s"##,
                ##"tring":"\u00ce"},{"string":"\u00cf"},{"string":"\u00d0"},{"string":"\u00d1"},{"string":"\u00d2"}"##,
                ##",{"string":"\u00d3"},{"string":"\u00d4"},{"string":"\u00d5"},{"string":"\u00d6"},{"string":""##,
                ##"\u00d9"},{"string":"\u00da"},{"string":"\u00db"},{"string":"\u00dc"},{"string":"\u00dd"},{"strin"##,
                ##"g":"\u00de"},{"string":"\u00b5"},{"string":"\u00d7"},{"string":"\u00f7"},{"string":"\u00a9"},{"s"##,
                ##"tring":"\u00a1"},{"string":"\u00a2"},{"string":"\u00a3"},{"string":"\u2044"},{"string":"\u00a5"}"##,
                ##",{"string":"\u0192"},{"string":"\u00a7"},{"string":"\u00a4"},{"string":"\u2019"},{"string":""##,
                ##"\u201c"},{"string":"\u00ab"},{"string":"\u2039"},{"string":"\u203a"},{"string":"\ufb01"},{"strin"##,
                ##"g":"\ufb02"},{"string":"\u00ae"},{"string":"\u2013"},{"string":"\u2020"},{"string":"\u2021"},{"s"##,
                ##"tring":"\u00b7"},{"string":"\u00a6"},{"string":"\u00b6"},{"string":"\u2022"},{"string":"\u201a"}"##,
                ##",{"string":"\u201e"},{"string":"\u201d"},{"string":"\u00bb"},{"string":"\u2026"},{"string":""##,
                ##"\u2030"},{"string":"\u00ac"},{"string":"\u00bf"},{"string":"\u00b9"},{"string":"\u02cb"},{"strin"##,
                ##"g":"\u00b4"},{"string":"\u02c6"},{"string":"\u02dc"},{"string":"\u00af"},{"string":"\u02d8"},{"s"##,
                ##"tring":"\u02d9"},{"string":"\u00a8"},{"string":"\u00b2"},{"string":"\u02da"},{"string":"\u00b8"}"##,
                ##",{"string":"\u00b3"},{"string":"\u02dd"},{"string":"\u02db"},{"string":"\u02c7"},{"string":""##,
                ##"\u2014"},{"string":"\u00b1"},{"string":"\u00bc"},{"string":"\u00bd"},{"string":"\u00be"},{"strin"##,
                ##"g":"\u00e0"},{"string":"\u00e1"},{"string":"\u00e2"},{"string":"\u00e3"},{"string":"\u00e4"},{"s"##,
                ##"tring":"\u00e5"},{"string":"\u00e7"},{"string":"\u00e8"},{"string":"\u00e9"},{"string":"\u00ea"}"##,
                ##",{"string":"\u00eb"},{"string":"\u00ec"},{"string":"\u00c6"},{"string":"\u00ed"},{"string":""##,
                ##"\u00aa"},{"string":"\u00ee"},{"string":"\u00ef"},{"string":"\u00f0"},{"string":"\u00f1"},{"strin"##,
                ##"g":"\u0141"},{"string":"\u00d8"},{"string":"\u0152"},{"string":"\u00ba"},{"string":"\u00f2"},{"s"##,
                ##"tring":"\u00f3"},{"string":"\u00f4"},{"string":"\u00f5"},{"string":"\u00f6"},{"string":"\u00e6"}"##,
                ##",{"string":"\u00f9"},{"string":"\u00fa"},{"string":"\u00fb"},{"string":"\u0131"},{"string":""##,
                ##"\u00fc"},{"string":"\u00fd"},{"string":"\u0142"},{"string":"\u00f8"},{"string":"\u0153"},{"strin"##,
                ##"g":"\u00df"},{"string":"\u00fe"},{"string":"\u00ff"}]}"##,
            ]
        ),
    ]
}

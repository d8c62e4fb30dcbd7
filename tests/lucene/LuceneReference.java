/*
 * Lucene reference for lexcase's `--analyzer lucene --scorer lucene` (tests/lucene/lucene-reference.test.ts
 * compiles and runs this file against Debian's liblucene8-java; nothing else uses it).
 *
 * The analyzer is Anserini's DefaultEnglishAnalyzer chain: StandardTokenizer -> EnglishPossessiveFilter ->
 * LowerCaseFilter -> StopFilter(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET) -> PorterStemFilter. Queries are
 * Anserini's bag of words: each distinct analysed term once, as a SHOULD clause boosted by its count.
 *
 * Input texts are one "id<TAB>text" a line, the text with \\t, \\n, \\\\ and \\uXXXX escapes.
 *   java LuceneReference analyze  IN OUT                   -> "id<TAB>term term ..."
 *   java LuceneReference tokenize IN OUT                   StandardTokenizer alone -> "id<TAB>" tokens "text<U+0001>type" joined by U+0002
 *   java LuceneReference search   DOCS QUERIES OUT SIM K    SIM = bm25:K1:B | qld:MU
 *        DOCS: "id<TAB>text" a line, indexed in file order (one segment, so Lucene doc ids = line order);
 *        OUT: a header "#stats docs=N terms=T tokens=S", then "qid<TAB>rank<TAB>docid<TAB>score<TAB>float-bits-hex"
 *        for the top K of each query (ties: lower Lucene doc id first, as TopScoreDocCollector ranks them).
 *   java LuceneReference norms    OUT                      the 256 decoded 1-byte norms, "byte<TAB>length"
 *   java LuceneReference version                           the Lucene version on the classpath (Version.LATEST) on stdout
 */
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.search.similarities.LMDirichletSimilarity;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.SmallFloat;

public class LuceneReference {
  static final String FIELD = "contents";

  static Analyzer analyzer() {
    return new Analyzer() {
      @Override
      protected TokenStreamComponents createComponents(String fieldName) {
        Tokenizer source = new StandardTokenizer();
        TokenStream result = new EnglishPossessiveFilter(source);
        result = new LowerCaseFilter(result);
        result = new StopFilter(result, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
        result = new PorterStemFilter(result);
        return new TokenStreamComponents(source, result);
      }
    };
  }

  static List<String> analyze(Analyzer a, String text) throws IOException {
    List<String> out = new ArrayList<>();
    try (TokenStream ts = a.tokenStream(FIELD, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) out.add(term.toString());
      ts.end();
    }
    return out;
  }

  static List<String[]> readTsv(String file) throws IOException {
    List<String[]> rows = new ArrayList<>();
    try (BufferedReader r = Files.newBufferedReader(Paths.get(file), StandardCharsets.UTF_8)) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.isEmpty()) continue;
        int tab = line.indexOf('\t');
        rows.add(new String[] {line.substring(0, tab), unescape(line.substring(tab + 1))});
      }
    }
    return rows;
  }

  /** Texts may carry \\t, \\n, \\\\ and \\uXXXX escapes (so any text fits on one TSV line). */
  static String unescape(String s) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\' || i + 1 >= s.length()) { sb.append(c); continue; }
      char n = s.charAt(++i);
      if (n == 't') sb.append('\t');
      else if (n == 'n') sb.append('\n');
      else if (n == 'u') { sb.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16)); i += 4; }
      else sb.append(n);
    }
    return sb.toString();
  }

  static Similarity similarity(String spec) {
    String[] p = spec.split(":");
    if (p[0].equals("bm25")) return new BM25Similarity(Float.parseFloat(p[1]), Float.parseFloat(p[2]));
    if (p[0].equals("qld")) return new LMDirichletSimilarity(Float.parseFloat(p[1]));
    throw new IllegalArgumentException("unknown similarity " + spec);
  }

  public static void main(String[] args) throws Exception {
    Analyzer analyzer = analyzer();
    switch (args[0]) {
      case "version": {
        System.out.println(org.apache.lucene.util.Version.LATEST);
        break;
      }
      case "analyze": {
        try (BufferedWriter w = Files.newBufferedWriter(Paths.get(args[2]), StandardCharsets.UTF_8)) {
          for (String[] row : readTsv(args[1])) w.write(row[0] + "\t" + String.join(" ", analyze(analyzer, row[1])) + "\n");
        }
        break;
      }
      case "tokenize": {
        try (BufferedWriter w = Files.newBufferedWriter(Paths.get(args[2]), StandardCharsets.UTF_8)) {
          for (String[] row : readTsv(args[1])) {
            StringBuilder sb = new StringBuilder();
            try (StandardTokenizer ts = new StandardTokenizer()) {
              ts.setReader(new java.io.StringReader(row[1]));
              CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
              org.apache.lucene.analysis.tokenattributes.TypeAttribute type = ts.addAttribute(org.apache.lucene.analysis.tokenattributes.TypeAttribute.class);
              ts.reset();
              while (ts.incrementToken()) {
                if (sb.length() > 0) sb.append('\u0002');
                sb.append(term.toString()).append('\u0001').append(type.type());
              }
              ts.end();
            }
            w.write(row[0] + "\t" + sb + "\n");
          }
        }
        break;
      }
      case "norms": {
        try (BufferedWriter w = Files.newBufferedWriter(Paths.get(args[1]), StandardCharsets.UTF_8)) {
          for (int i = 0; i < 256; i++) w.write(i + "\t" + SmallFloat.byte4ToInt((byte) i) + "\n");
          for (int len : new int[] {0, 1, 23, 24, 25, 40, 41, 100, 1000, 123456, Integer.MAX_VALUE})
            w.write("enc\t" + len + "\t" + Byte.toUnsignedInt(SmallFloat.intToByte4(len)) + "\n");
        }
        break;
      }
      case "search": {
        Similarity sim = similarity(args[4]);
        int k = Integer.parseInt(args[5]);
        Directory dir = new ByteBuffersDirectory();
        IndexWriterConfig cfg = new IndexWriterConfig(analyzer).setSimilarity(sim).setRAMBufferSizeMB(512);
        List<String[]> docs = readTsv(args[1]);
        try (IndexWriter iw = new IndexWriter(dir, cfg)) {
          for (String[] d : docs) {
            Document doc = new Document();
            doc.add(new StoredField("id", d[0]));
            doc.add(new TextField(FIELD, d[1], Field.Store.NO));
            iw.addDocument(doc);
          }
          iw.forceMerge(1);
        }
        try (DirectoryReader reader = DirectoryReader.open(dir);
            BufferedWriter w = Files.newBufferedWriter(Paths.get(args[3]), StandardCharsets.UTF_8)) {
          IndexSearcher searcher = new IndexSearcher(reader);
          searcher.setSimilarity(sim);
          Terms terms = MultiTerms.getTerms(reader, FIELD);
          w.write("#stats docs=" + reader.numDocs() + " docCount=" + terms.getDocCount() + " terms=" + terms.size() + " tokens=" + terms.getSumTotalTermFreq() + "\n");
          for (String[] q : readTsv(args[2])) {
            Map<String, Integer> counts = new LinkedHashMap<>();
            for (String t : analyze(analyzer, q[1])) counts.merge(t, 1, Integer::sum);
            BooleanQuery.Builder b = new BooleanQuery.Builder();
            for (Map.Entry<String, Integer> e : counts.entrySet())
              b.add(new BoostQuery(new TermQuery(new Term(FIELD, e.getKey())), (float) e.getValue()), BooleanClause.Occur.SHOULD);
            TopDocs top = searcher.search(b.build(), k);
            int rank = 0;
            for (ScoreDoc sd : top.scoreDocs) {
              String id = reader.document(sd.doc).get("id");
              w.write(q[0] + "\t" + (++rank) + "\t" + id + "\t" + sd.score + "\t" + Integer.toHexString(Float.floatToIntBits(sd.score)) + "\n");
            }
          }
        }
        break;
      }
      default:
        throw new IllegalArgumentException("unknown mode " + args[0]);
    }
  }
}

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
 *   java LuceneReference rm3      DOCS QUERIES OUT SIM K FBDOCS FBTERMS WEIGHT
 *        RM3 as Anserini's Rm3Reranker computes it (written here from its description in
 *        retrieval/rm3.ts, on Lucene's own term vectors): the bag-of-words query's top FBDOCS;
 *        each one's term vector (terms of [a-z0-9]+, 2-20 chars, df/numDocs <= 0.1f) pruned to its
 *        FBTERMS largest counts (ties: ascending term); Σ count/L1 × score; pruned to FBTERMS,
 *        scaled to sum 1; interpolated with the query's term shares (WEIGHT); the BooleanQuery of
 *        BoostQuery(term, weight) ranked. OUT: "#stats …", then per query "T<TAB>qid<TAB>term<TAB>weight-bits-hex"
 *        for every expanded-query term and "R<TAB>qid<TAB>rank<TAB>docid<TAB>score<TAB>float-bits-hex" for its top K.
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
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
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
import org.apache.lucene.util.BytesRef;
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

  /** The bag-of-words query: each distinct analysed term once, boosted by its count. */
  static BooleanQuery bagOfWords(Analyzer analyzer, String text) throws IOException {
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (String t : analyze(analyzer, text)) counts.merge(t, 1, Integer::sum);
    BooleanQuery.Builder b = new BooleanQuery.Builder();
    for (Map.Entry<String, Integer> e : counts.entrySet())
      b.add(new BoostQuery(new TermQuery(new Term(FIELD, e.getKey())), (float) e.getValue()), BooleanClause.Occur.SHOULD);
    return b.build();
  }

  /** Index DOCS in file order (one segment: Lucene doc ids = line order), with term vectors. */
  static Directory index(Analyzer analyzer, Similarity sim, List<String[]> docs) throws IOException {
    Directory dir = new ByteBuffersDirectory();
    IndexWriterConfig cfg = new IndexWriterConfig(analyzer).setSimilarity(sim).setRAMBufferSizeMB(512);
    FieldType withVectors = new FieldType(TextField.TYPE_NOT_STORED);
    withVectors.setStoreTermVectors(true);
    withVectors.freeze();
    try (IndexWriter iw = new IndexWriter(dir, cfg)) {
      for (String[] d : docs) {
        Document doc = new Document();
        doc.add(new StoredField("id", d[0]));
        doc.add(new Field(FIELD, d[1], withVectors));
        iw.addDocument(doc);
      }
      iw.forceMerge(1);
    }
    return dir;
  }

  /** The k largest values, ties by ascending key, as a map in that order. */
  static LinkedHashMap<String, Float> prune(Map<String, Float> v, int k) {
    List<Map.Entry<String, Float>> es = new ArrayList<>(v.entrySet());
    es.sort((x, y) -> {
      float a = x.getValue(), b = y.getValue();
      if (a == b) return x.getKey().compareTo(y.getKey());
      return a > b ? -1 : 1;
    });
    LinkedHashMap<String, Float> out = new LinkedHashMap<>();
    for (Map.Entry<String, Float> e : es) {
      if (out.size() >= k) break;
      out.put(e.getKey(), e.getValue());
    }
    return out;
  }

  static double l1(Map<String, Float> v) {
    double n = 0;
    for (float x : v.values()) n += Math.abs(x);
    return n;
  }

  /** RM3's expanded query of one query: term -> weight. */
  static Map<String, Float> rm3(Analyzer analyzer, IndexSearcher searcher, String text, int fbDocs, int fbTerms, float w) throws IOException {
    org.apache.lucene.index.IndexReader reader = searcher.getIndexReader();
    TopDocs first = searcher.search(bagOfWords(analyzer, text), fbDocs);
    int numDocs = reader.numDocs();
    List<LinkedHashMap<String, Float>> vectors = new ArrayList<>();
    List<Float> scores = new ArrayList<>();
    Set<String> vocab = new HashSet<>();
    for (ScoreDoc sd : first.scoreDocs) {
      Map<String, Float> v = new HashMap<>();
      Terms tv = reader.getTermVector(sd.doc, FIELD);
      if (tv != null) {
        TermsEnum te = tv.iterator();
        BytesRef br;
        while ((br = te.next()) != null) {
          String term = br.utf8ToString();
          if (term.length() < 2 || term.length() > 20) continue;
          if (!term.matches("[a-z0-9]+")) continue;
          float ratio = (float) reader.docFreq(new Term(FIELD, term)) / numDocs;
          if (ratio > 0.1f) continue;
          v.put(term, (float) te.totalTermFreq());
        }
      }
      LinkedHashMap<String, Float> pruned = prune(v, fbTerms);
      vocab.addAll(pruned.keySet());
      vectors.add(pruned);
      scores.add(sd.score);
    }
    float[] norms = new float[vectors.size()];
    for (int i = 0; i < norms.length; i++) norms[i] = (float) l1(vectors.get(i));
    Map<String, Float> rm = new HashMap<>();
    for (String t : vocab) {
      float fb = 0f;
      for (int i = 0; i < vectors.size(); i++)
        if (norms[i] > 0.001f) fb += (vectors.get(i).getOrDefault(t, 0f) / norms[i]) * scores.get(i);
      rm.put(t, fb);
    }
    LinkedHashMap<String, Float> top = prune(rm, fbTerms);
    double rmNorm = l1(top);
    for (Map.Entry<String, Float> e : top.entrySet()) e.setValue((float) (e.getValue() / rmNorm));
    List<String> tokens = analyze(analyzer, text);
    Map<String, Float> q = new HashMap<>();
    for (String t : tokens) q.merge(t, 1f, Float::sum);
    double qNorm = l1(q);
    for (Map.Entry<String, Float> e : q.entrySet()) e.setValue((float) (e.getValue() / qNorm));
    Map<String, Float> out = new HashMap<>();
    Set<String> all = new HashSet<>(q.keySet());
    all.addAll(top.keySet());
    for (String t : all) out.put(t, (float) (w * q.getOrDefault(t, 0f) + (1.0 - w) * top.getOrDefault(t, 0f)));
    return out;
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
      case "rm3": {
        Similarity sim = similarity(args[4]);
        int k = Integer.parseInt(args[5]);
        int fbDocs = Integer.parseInt(args[6]);
        int fbTerms = Integer.parseInt(args[7]);
        float weight = Float.parseFloat(args[8]);
        Directory dir = index(analyzer, sim, readTsv(args[1]));
        try (DirectoryReader reader = DirectoryReader.open(dir);
            BufferedWriter w = Files.newBufferedWriter(Paths.get(args[3]), StandardCharsets.UTF_8)) {
          IndexSearcher searcher = new IndexSearcher(reader);
          searcher.setSimilarity(sim);
          Terms terms = MultiTerms.getTerms(reader, FIELD);
          w.write("#stats docs=" + reader.numDocs() + " docCount=" + terms.getDocCount() + " terms=" + terms.size() + " tokens=" + terms.getSumTotalTermFreq() + "\n");
          for (String[] q : readTsv(args[2])) {
            Map<String, Float> expanded = rm3(analyzer, searcher, q[1], fbDocs, fbTerms, weight);
            BooleanQuery.Builder b = new BooleanQuery.Builder();
            for (Map.Entry<String, Float> e : expanded.entrySet()) {
              w.write("T\t" + q[0] + "\t" + e.getKey() + "\t" + Integer.toHexString(Float.floatToIntBits(e.getValue())) + "\n");
              b.add(new BoostQuery(new TermQuery(new Term(FIELD, e.getKey())), e.getValue()), BooleanClause.Occur.SHOULD);
            }
            TopDocs top = searcher.search(b.build(), k);
            int rank = 0;
            for (ScoreDoc sd : top.scoreDocs) {
              String id = reader.document(sd.doc).get("id");
              w.write("R\t" + q[0] + "\t" + (++rank) + "\t" + id + "\t" + sd.score + "\t" + Integer.toHexString(Float.floatToIntBits(sd.score)) + "\n");
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

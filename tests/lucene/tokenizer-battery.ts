/**
 * Strings where UAX #29 word segmentation is subtle, for comparing lexcase's StandardTokenizer
 * (indexer/lucene-tokenizer.ts) with Lucene's: apostrophes and possessives, numbers with
 * punctuation, underscores, colons, emoji, CJK, Southeast Asian scripts, Hangul, katakana,
 * combining marks, format characters, and tokens longer than 255 characters.
 */
export const TOKENIZER_BATTERY: string[] = [
  "The plaintiff's claim didn't succeed; O'Brien's dog isn't here.",
  'Curly: plaintiff’s claim didn’t succeed. Fullwidth: John＇s',
  'U.S. v. Smith, 123 F.3d 456 (9th Cir. 1999), e.g. i.e. Ph.D.',
  '$1,000,000.00 and 3.14 and 1,2,3 and 12:30 and 10-20 and 1/2 and 3.5% and -7 and +8',
  'section 2-201(3)(a) § 1983 ¶ 12 U.C.C. §2-207',
  'foo_bar __init__ _x a_1 1_a snake_case_name ___ 1_000_000 a_.b underscore_',
  'email john.doe@example.com http://www.example.com/path?x=1 www.example.com',
  "a:b note:the 3:4 a.b a..b a'b a''b 'quoted' \"dq\" a.1 1.a 1'2 1,a a,1 a;b 1;2 a·b",
  'emoji 👍 😀😀 👨‍👩‍👧 ❤️ 🇺🇸 #️⃣ 1️⃣ ©️ ™ a👍b © ® 2019© 👍🏽 😀🏽 🇺🇸🇬 🏳️‍🌈',
  'Chinese 中华人民共和国 Japanese ひらがなカタカナ漢字 Korean 한국어입니다 Thai ภาษาไทยง่าย',
  'Greek ΣΟΦΙΑ σοφία Cyrillic Москва Hebrew שָׁלוֹם ש"ב רמב"ם ג׳ Arabic العربية',
  'Accents café naïve résumé Zürich İstanbul ǅemal ß ﬁne',
  'combining e\u0301 cafe\u0301 a\u0308b',
  'tabs\tand\nnewlines\r\nand\u00a0nbsp\u2028ls zero\u200bwidth soft\u00adhyphen zw\u200cnj zw\u200dj',
  "numbers 1st 2nd 3rd 4th 1990s '90s 10.5.3 1.2.3.4 0x1F 1e10 1,000.5,3",
  'hyphen well-known state-of-the-art co-operate – — dash',
  "apostrophes rock'n'roll 'tis y'all ol' don't' ’tis",
  'dots ...and... end. Mr.Smith mid.dle',
  'katakana カタカナ ｶﾀｶﾅ halfwidth and ー prolonged カタカナa aカタカナ',
  'mixed ab12cd 12ab ab12 a1.b2 1a.2b',
  "ALLCAPS CamelCase iPhone McDonald's",
  'fractions ½ ¾ superscript x² ① ⅷ',
  'math a<b c>d a=b a+b a*b a#b a@b a&b a|b a~b a^b',
  'quotes «guillemets» „German“ 「Japanese」 “curly” ‘single’',
  "vs.  v.  Inc.'s  Co.,Ltd",
  'Han and hiragana beside Latin: 中a a中 中1 ひa',
  'Thai beside Latin and digits: ไทยabc abcไทย ไทย123',
  'Hangul beside Latin: 한국a a한국 1한국',
  'ideographic marks 〆 〇 ゝ',
  '々 x々y 々1 〻',
  'long ' + 'a'.repeat(300) + ' and ' + '1'.repeat(520) + ' x',
  'a'.repeat(254) + "'s x",
  'a'.repeat(255) + "'s x",
  'a'.repeat(253) + "'s x",
  '1'.repeat(254) + ',5 x',
  'a'.repeat(254) + '_b',
  'a'.repeat(254) + '\u0301b',
  '𝐀'.repeat(130),
  'a' + '𝐀'.repeat(130),
  'x\u200d😀',
  'a_\u00ad x a_\u00ad y _\u00ada',
];

/** Strings where lexcase's tokens still differ from Lucene 8's: a word joined to an emoji by ZWJ is one ICU segment. */
export const KNOWN_TOKENIZER_DIFFERENCES: string[] = ['x\u200d😀'];

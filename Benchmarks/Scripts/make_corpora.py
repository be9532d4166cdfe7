#!/usr/bin/env python3
"""Writes Fold's benchmark corpora: deterministic synthetic text built from word lists below.

    python3 Scripts/make_corpora.py            # ~20 MB each into Benchmarks/Corpora/
    python3 Scripts/make_corpora.py --mb 2     # small ones, for a quick run
    FOLD_CORPUS_MB=5 python3 Scripts/make_corpora.py

Corpora (one UTF-8 text per file, "\\n" line ends, lines of 20 to 200 characters):
  english.txt   English prose, mostly ASCII; about 1% of the words are accented loanwords and
                names (café, naïve, résumé, Zürich), a few typographic quotes and dashes, a few
                all-caps headlines.
  european.txt  Lines in French, German, Vietnamese, Polish, Icelandic and Danish: æ œ ß ø ł đ þ,
                the ﬁ ligature, stacked Vietnamese diacritics; some lines in NFD.
  mixed.txt     Mixed scripts on each line: fullwidth Latin and digits, Greek with tonos and
                dialytika, Cyrillic (Russian, Ukrainian, Serbian), CJK (Chinese, Japanese kanji),
                hiragana and katakana with voiced marks, half-width katakana, some plain English.

The same seed, size and script always give the same bytes (Python's `random.Random` seeded with
a string is stable across runs and versions).
"""
import argparse
import os
import random
import sys
import unicodedata

# --------------------------------------------------------------------------------------------
# Word lists

ENGLISH = """
the of and to in a is that for it as was with be by on not he this are or his from at which
but have an they you were her she there been one all we their has would when if so no will up
more out who them some could what can time about into only other new people than first also I
any after two like our these may over such years most then well those between under while
where because through each before many being same both during without another around since
against however here again long great little own might old right still last year day world
life hand part child eye woman place work week case point government company number group
problem fact home water room mother area money story month lot book job word business issue
side kind head house service friend father power hour game line end member law car city name
team minute idea kid body information back parent face others level office door health person
art war history party result change morning reason research girl guy moment air teacher force
education foot boy age policy music market sense nation plan college interest death experience
effect class control care field development role effort rate heart drug show leader light voice
wife police mind price report decision son view relationship town road arm difference value
building action model season society tax director position player record paper space ground
form event official matter center couple site project activity star table need court oil
situation cost industry figure street image phone data picture practice piece land product
doctor wall patient worker news test movie north love support technology step baby computer
type attention film tree source organization hair window evidence population truth song
make know take see come think look want give use find tell ask seem feel try leave call keep
let begin help talk turn start might show hear play run move live believe hold bring happen
write provide sit stand lose pay meet include continue set learn lead understand watch follow
stop create speak read allow add spend grow open walk win offer remember consider appear buy
wait serve die send expect build stay fall cut reach kill remain suggest raise pass sell
require decide return explain hope develop carry break receive agree support hit produce eat
good new first last long great little own other old right big high different small large next
early young important few public bad same able late hard major better economic strong possible
whole free military true federal international full special easy clear recent certain personal
open red difficult available likely short single medical current wrong private past foreign
fine common poor natural significant similar hot dead central happy serious ready simple left
physical general environmental financial blue democratic dark various entire close legal
religious cold final main green nice huge popular traditional cultural quickly slowly really
very often always never sometimes usually perhaps almost already quite rather enough together
""".split()

ENGLISH_ACCENTED = """
café naïve résumé Zürich façade jalapeño piñata fiancée entrée déjà vu cliché soufflé protégé
exposé touché naïveté Pokémon Brontë Beyoncé Chloë Noël Zoë Renée doppelgänger smörgåsbord
Māori Kraków Dvořák Gödel Schrödinger Erdős São Paulo Ångström coöperate über crème brûlée
Málaga Bogotá Curaçao Québec Montréal Besançon Nîmes Genève Köln München Düsseldorf Göteborg
Malmö Tromsø Reykjavík Ísafjörður Łódź Gdańsk Poznań Plzeň Brno Škoda Citroën Renée Zoë
Penélope Agnès Hélène Françoise Jürgen Günther Björk Søren Kierkegaard Nuñez Peña Muñoz
Ibáñez García López Pérez Gómez Martínez Núñez Jiménez Sánchez Gonçalves João Antônio Ørsted
rosé appliqué décor début naïf maître tête-à-tête vis-à-vis attaché communiqué pâté purée
""".split()

FRENCH = """
le la les un une des du de et à en dans pour sur avec par ne pas plus que qui quoi où quand
comme mais ou donc or ni car ce cette ces mon ma mes ton ta tes son sa ses notre votre leur
être avoir faire dire aller voir savoir pouvoir falloir vouloir venir prendre croire mettre
parler donner trouver penser aimer passer regarder répondre entendre écrire lire vivre mourir
année été hiver printemps automne fenêtre forêt tête fête bête être même extrême élève
école église étudiant étranger été équipe étoile éléphant épée état économie énergie
français française garçon leçon façon reçu ça déjà voilà là où très après près
cœur sœur œuvre bœuf œil œuf vœu manœuvre nœud chœur Œdipe cœlacanthe
naïf naïve maïs Noël Zoë aïeul héroïne égoïste mosaïque archaïque
hôtel hôpital côte côté fenêtre château gâteau âge âme pâte tâche bâtiment théâtre
île dîner maître boîte connaître paraître naître goût coût août où sûr mûr
crème brûlée pièce père mère frère lumière rivière première dernière manière matière
déjeuner réveil médecin télévision téléphone musée idée pensée journée soirée entrée
fille fils fin final officiel bénéfice efficace difficile fidèle figure fiable fierté
affiche chiffre réfléchir définir profiter confiance suffisant magnifique scientifique
liberté égalité fraternité société santé vérité qualité université curiosité
travail soleil oiseau chien chat maison ville village pays monde gens enfant homme femme
pain vin fromage beurre lait café thé eau sel sucre chocolat croissant baguette
rue route gare train avion voiture vélo bateau métro billet voyage vacances plage mer
livre histoire mot phrase langue lettre journal nouvelle parole chanson musique film
grand petit beau belle joli jolie nouveau nouvelle vieux vieille bon bonne mauvais
jeune heureux heureuse triste facile rapide lent lourd léger cher chère fort faible
aujourd'hui hier demain toujours jamais souvent encore aussi bien mal vite ensemble
Paris Lyon Marseille Orléans Besançon Nîmes Genève Québec Montréal Angoulême Béziers
""".split()

GERMAN = """
der die das ein eine und oder aber denn sondern nicht kein keine ich du er sie es wir ihr
mit von zu bei nach aus für über unter vor hinter neben zwischen durch gegen ohne um
sein haben werden können müssen sollen wollen dürfen mögen sagen machen geben kommen gehen
wissen sehen lassen stehen finden bleiben liegen heißen denken nehmen tun glauben halten
Straße Größe Fußball Maß Gruß Fuß Spaß Schloß Strauß Grüße Füße Süßigkeit Äußerung
schön groß weiß heiß süß bloß außen draußen gemäß mäßig fließen schließen genießen
Mädchen Bäcker Käse Äpfel Männer Häuser Bücher Vögel Zähne Hände Länder Wälder Städte
Mütter Brüder Töchter Söhne Schüler Lehrerin Ärztin Bürger König Königin Schlüssel
über für müde früh spät Küche Tür Tür Stück Glück Brücke Rücken Frühstück Gemüse
Öl Österreich Ökonomie Übung Ärger Äther Ähnlichkeit Überraschung Unterstützung
Haus Hund Katze Stadt Land Welt Zeit Jahr Tag Nacht Woche Monat Stunde Minute Leben
Arbeit Familie Freund Freundin Kind Kinder Frau Mann Mensch Leute Wasser Brot Bier Wein
Schule Universität Bahnhof Flughafen Zug Auto Fahrrad Straßenbahn Fahrkarte Reise
Buch Zeitung Brief Wort Sprache Geschichte Lied Musik Bild Film Fernseher Telefon
gut schlecht alt neu jung klein lang kurz hoch tief schnell langsam leicht schwer
Öffnungszeiten Schifffahrt Fräulein Rindfleisch Eichhörnchen Kühlschrank Führerschein
Häufigkeit Geschäft Gespräch Gefühl Gebäude Gefängnis Geräusch Geschwindigkeit
Offizier offiziell Profi Grafik Definition Finanzamt Finsternis finden Fisch Fichte
München Köln Düsseldorf Nürnberg Zürich Göttingen Lübeck Würzburg Saarbrücken Gießen
heute gestern morgen immer nie oft manchmal schon noch auch sehr ganz wieder zusammen
""".split()

VIETNAMESE = """
tiếng Việt người Việt Nam Hà Nội Sài Gòn Đà Nẵng Huế Hội An Cần Thơ Hải Phòng Nha Trang
đường đi đến đây đó đã đang được để đầu đẹp đất đêm đồng đời điều đọc đứng đủ đúng
những người nước nhà ngày năm tháng tuần giờ phút sáng trưa chiều tối
xin chào cảm ơn không có là của và với cho trong ngoài trên dưới trước sau giữa
tôi bạn anh chị em ông bà cô chú họ chúng ta chúng tôi mình
học sinh giáo viên trường học đại học sách vở bút bàn ghế lớp bài tập
ăn uống ngủ làm việc chơi nói nghe nhìn thấy biết hiểu nghĩ muốn cần phải
phở bánh mì cơm gạo nước mắm chả giò bún bò cà phê trà đá sữa đường muối
thành phố thủ đô quê hương đất nước dân tộc lịch sử văn hóa ngôn ngữ
mùa xuân mùa hạ mùa thu mùa đông mưa nắng gió bão trời mây sông núi biển
gia đình cha mẹ con cái anh trai chị gái em trai em gái ông nội bà ngoại
hạnh phúc vui vẻ buồn đẹp xấu lớn nhỏ nhiều ít mới cũ nhanh chậm khó dễ
Nguyễn Trần Lê Phạm Hoàng Huỳnh Phan Vũ Võ Đặng Bùi Đỗ Hồ Ngô Dương Lý
thuyền xe máy xe đạp tàu hỏa máy bay chợ siêu thị bệnh viện ngân hàng
khuyến khích nghiêng ngưỡng thưởng thức tưởng tượng trường hợp chương trình
""".split()

POLISH = """
i w na z do nie się to że jest jak po co tak ale za od o być mieć móc chcieć wiedzieć
łódź Łódź Kraków Gdańsk Wrocław Poznań Szczecin Białystok Częstochowa Toruń Zakopane
łąka łza ładny łatwy łyżka łóżko mały biały cały stół szkoła miła ołówek głowa słowo
żółw żaba żona życie żółty źródło źle ździebło ćma ćwiczenie ciało cień
ś ślub śnieg świat święto śpiewać środa świeży śmiech ślimak
ą ę mąka ręka pięć dziękuję proszę będę idę mogę chcę wiem mówię piszę
zażółć gęślą jaźń źdźbło pchnąć łódź jeża ósmy góra móc ogród córka wóz
dzień dobry dobranoc cześć przepraszam tak nie może jutro wczoraj dzisiaj zawsze nigdy
człowiek kobieta mężczyzna dziecko rodzina matka ojciec brat siostra babcia dziadek
miasto wieś ulica dom mieszkanie pokój kuchnia łazienka okno drzwi ściana podłoga
chleb masło mleko woda herbata kawa piwo wino mięso ryba ziemniak jabłko gruszka
język polski polska Polska książka gazeta list słownik historia muzyka piosenka
pociąg samochód rower autobus tramwaj samolot dworzec lotnisko bilet podróż
dobry zły duży wielki stary młody nowy ładny brzydki szybki wolny ciężki lekki
Wałęsa Skłodowska Chopin Miłosz Szymborska Łukasz Paweł Michał Stanisław Małgorzata
""".split()

ICELANDIC = """
og að er í á það sem við ekki um en til af hann hún þeir þær þau var vera hafa
þú þetta þessi þarna þar þá því þegar þó þakka þrír þúsund þing Þingvellir Þórður
ð maður kona barn börn faðir móðir bróðir systir dóttir sonur afi amma fjölskylda
Reykjavík Akureyri Ísafjörður Egilsstaðir Húsavík Hafnarfjörður Kópavogur Höfn Vík
Ísland íslenska íslenskur jökull eldfjall fjall fjörður hraun hver foss á vatn sjór
góðan daginn góða nótt takk fyrir bless já nei kannski alltaf aldrei oft stundum
hús bær borg gata vegur bíll flugvél skip bátur rúta hjól brú kirkja skóli
brauð smjör mjólk kaffi te bjór vín fiskur kjöt lambakjöt skyr ostur epli
bók blað orð mál saga ljóð lag tónlist mynd kvikmynd sími tölva
stór lítill gamall nýr ungur góður vondur fallegur ljótur fljótur hægur þungur léttur
æ æska ævi ævintýri bæði bær ær sæll sæla hæð hættur læknir kæri væri
ö öl örn höfuð hönd fjöll börn kjöt löng sögur kötturinn Öxará Ölfus
ý ýmis lýsa býr dýr mýri sýning fýll þýska
Guðrún Sigríður Jón Ólafur Björk Halldór Laxness Snorri Sturluson Vigdís Finnbogadóttir
Eyjafjallajökull Vatnajökull Snæfellsjökull Mývatn Þórsmörk Jökulsárlón
""".split()

DANISH = """
og i at det en den til er som på de med han af for ikke der var jeg har sig
æ ø å ære æble æg æsel ærlig fæstning hænder kærlighed smørrebrød rødgrød med fløde
ø øl øje øre ønske ørn ø ø søster brød smør rød grøn sød høj lød køre møde
bøger børn døtre fødsel først hjørne København Århus Aalborg Odense Ærø Øresund
Ålborg Åbenrå Helsingør Roskilde Esbjerg Næstved Køge Tønder Sønderborg Brøndby
å år åben åbne åndedræt ålekage hånd mål sjælden tårn blå grå små gå stå få
mand kvinde barn far mor bror søster bedstemor bedstefar familie venner naboer
hus by land verden tid dag nat uge måned time minut liv arbejde skole universitet
vand mælk kaffe te øl vin kartofler frikadeller rugbrød wienerbrød kage
bog avis brev ord sprog historie sang musik billede film telefon computer
god dårlig stor lille gammel ny ung smuk grim hurtig langsom tung let
hyggelig hygge tak velkommen farvel godmorgen godnat undskyld måske altid aldrig
fin finde finger fisk fiskeri fire officiel profil definition konfirmation
Søren Kierkegaard Niels Bohr Karen Blixen Hans Christian Andersen Tycho Brahe Ørsted
""".split()

GREEK = """
Αθήνα Θεσσαλονίκη Πάτρα Ηράκλειο Λάρισα Βόλος Ιωάννινα Καλαμάτα Ρόδος Κέρκυρα Σαντορίνη
καλημέρα καλησπέρα καληνύχτα ευχαριστώ παρακαλώ συγγνώμη ναι όχι ίσως πάντα ποτέ
ελληνικά Ελλάδα Έλληνας γλώσσα ιστορία πολιτισμός μουσική θέατρο ποίηση φιλοσοφία
πόλη χωριό δρόμος σπίτι σχολείο πανεπιστήμιο νοσοκομείο εκκλησία αγορά πλατεία
θάλασσα ουρανός ήλιος φεγγάρι αστέρι βουνό ποτάμι νησί παραλία δάσος λίμνη
μέρα νύχτα ώρα λεπτό εβδομάδα μήνας χρόνος σήμερα αύριο χθες τώρα μετά πριν
άνθρωπος γυναίκα άντρας παιδί μητέρα πατέρας αδελφός αδελφή φίλος φίλη οικογένεια
ψωμί νερό κρασί καφές τσάι γάλα τυρί ελιά λάδι ψάρι κρέας φρούτα σαλάτα
βιβλίο εφημερίδα γράμμα λέξη όνομα τραγούδι εικόνα ταινία τηλέφωνο υπολογιστής
μεγάλος μικρός καλός κακός ωραίος νέος παλιός γρήγορος αργός εύκολος δύσκολος
Ά Έ Ή Ί Ό Ύ Ώ Άρης Έλενα Ήρα Ίρις Όλγα Ύδρα Ώρες Ιούνιος Ιούλιος Αύγουστος
προϊόν ευφυΐα Προϊστορία πρωτεΐνη αϋπνία Ταΰγετος ρολόι καΐκι μαϊμού κοροϊδεύω
Σάββατο Κυριακή Δευτέρα Τρίτη Τετάρτη Πέμπτη Παρασκευή Ιανουάριος Φεβρουάριος
""".split()

CYRILLIC = """
Москва Санкт-Петербург Новосибирск Екатеринбург Казань Нижний Новгород Самара Омск
привет здравствуйте спасибо пожалуйста извините да нет может быть всегда никогда
ёлка ёжик ёмкость объём съезд подъезд щука щётка жёлтый чёрный зелёный учёный
история книга город улица время человек жизнь работа слово место вопрос ребёнок
дом день рука глаз лицо друг голова сторона страна мир случай сила конец вид
система часть образ земля решение отношение правительство общество развитие
хлеб молоко вода чай кофе пиво вино мясо рыба картофель яблоко сыр борщ пельмени
большой маленький хороший плохой новый старый молодой красивый быстрый медленный
русский язык русская литература Толстой Достоевский Пушкин Чехов Гоголь Тургенев
сегодня вчера завтра сейчас потом утром вечером ночью зимой летом весной осенью
Київ Львів Одеса Харків їжак ґанок Україна українська мова Шевченко п'ять сім'я
Београд Ђорђе љубав њива џем ћирилица Нови Сад Ниш ђак Ђоковић
Мінск беларуская мова ўсход Ўладзімір
""".split()

CHINESE = """
中文 北京 上海 广州 深圳 香港 台北 漢字 简体字 繁體字 學習 学习 电脑 電腦 天气 天氣
我们 你们 他们 你好 谢谢 謝謝 朋友 时间 時間 问题 問題 世界 经济 經濟 发展 發展
国家 國家 人民 大学 大學 图书馆 圖書館 火车站 火車站 飞机 飛機 城市 历史 歷史
文化 音乐 音樂 电影 電影 手机 手機 网络 網絡 公司 工作 学生 老师 老師 医生 醫生
吃饭 喝茶 咖啡 米饭 面条 饺子 包子 豆腐 苹果 水果 中国 中國 长城 長城 黄河 长江
今天 明天 昨天 早上 晚上 春天 夏天 秋天 冬天 东西 南北 左右 上下 山水 风景
""".split()

KANJI = """
東京 大阪 京都 名古屋 横浜 札幌 福岡 神戸 広島 仙台 日本 日本語 新幹線 会社 学校
先生 学生 電車 駅 天気 料理 寿司 漢字 辞書 図書館 病院 銀行 郵便局 週末 毎日
今日 明日 昨日 時間 仕事 家族 友達 映画 音楽 写真 旅行 買物 食事 朝御飯 晩御飯
山 川 海 空 雨 雪 花 桜 春 夏 秋 冬 東 西 南 北 人 子供 女性 男性 大学 研究 経済
""".split()

HIRAGANA = """
ひらがな ありがとう こんにちは おはよう ございます です ます でした ません
がっこう ごはん ざっし じかん ずっと ぜんぶ ぞう だいがく でんしゃ どうぞ
ばんごはん びょういん ぶどう べんきょう ぼうし ぱん ぴかぴか ぷりん ぺらぺら ぽかぽか
は が を に で と の も へ から まで より ね よ か
わたし あなた かれ かのじょ みんな ともだち かぞく せんせい がくせい
たべる のむ みる きく はなす よむ かく いく くる かえる ねる おきる あそぶ
おいしい たのしい うれしい かなしい あたらしい ふるい おおきい ちいさい
ぎんこう げんき ごめんなさい じてんしゃ だいじょうぶ でんわ どようび ぎゅうにゅう
""".split()

KATAKANA = """
カタカナ コーヒー テレビ ガラス ギター グラス ゲーム ゴルフ ザリガニ ジュース ズボン
ゼロ ゾーン ダンス デパート ドア バス ビール ブログ ベッド ボール パン ピアノ プール
ペン ポスト ヴァイオリン データ コンピューター インターネット メール スマートフォン
タクシー ホテル レストラン アイスクリーム チョコレート サッカー キャンプ シャツ
ジョギング ファイル フィルム ウェブ ティー ディスク ドキュメント プログラム デザイン
ビジネス ニュース スポーツ ガイド グループ バナナ トマト ラーメン カレー パスワード
""".split()

# --------------------------------------------------------------------------------------------
# Helpers

def capitalize(word: str) -> str:
    return word[:1].upper() + word[1:] if word else word


def fit(line: str, target: int, min_len: int = 20, max_len: int = 200) -> str:
    """Trims `line` to at most max_len characters at a space when possible."""
    if len(line) <= max_len:
        return line
    cut = line.rfind(" ", min_len, max_len + 1)
    if cut == -1:
        cut = max_len
    return line[:cut].rstrip()


def build_line(rng: random.Random, piece) -> str:
    """Appends pieces (each returns text, joined by a space unless it says otherwise) until the
    line reaches a random length of 20 to 200 characters."""
    target = rng.randint(20, 200)
    line = ""
    while len(line) < target:
        text, spaced = piece()
        line = (line + " " + text) if (line and spaced) else (line + text)
    line = fit(line, target)
    while len(line) < 20:  # rare: a long piece cut back too far
        text, _ = piece()
        line = fit(line + " " + text, target)
    return line


def sentence(rng: random.Random, words, lo=4, hi=16, accented=None, accent_rate=0.0, lig_rate=0.0) -> str:
    n = rng.randint(lo, hi)
    out = []
    for i in range(n):
        if accented and rng.random() < accent_rate:
            w = rng.choice(accented)
        else:
            w = rng.choice(words)
        if lig_rate and "fi" in w and rng.random() < lig_rate:
            w = w.replace("fi", "\ufb01", 1)
        if i == 0:
            w = capitalize(w)
        elif i < n - 1 and rng.random() < 0.06:
            w += ","
        out.append(w)
    return " ".join(out) + rng.choice(".....!?;:")


# --------------------------------------------------------------------------------------------
# Corpora

def english_line(rng: random.Random) -> str:
    def piece():
        s = sentence(rng, ENGLISH, 5, 18, ENGLISH_ACCENTED, 0.01)
        r = rng.random()
        if r < 0.02:
            s = "\u201c" + s + "\u201d"            # “…”
        elif r < 0.03:
            s = s[:-1] + " \u2014 " + rng.choice(ENGLISH) + "."  # em dash
        elif r < 0.05:
            s = s[:-1] + " in " + str(rng.randint(1850, 2030)) + "."
        elif r < 0.06:
            s = s.replace(" ", " it\u2019s ", 1)     # ’
        return s, True
    line = build_line(rng, piece)
    if rng.random() < 0.02:
        line = fit(line.upper(), 200)
    return line


EUROPEAN_LANGUAGES = [
    ("fr", FRENCH, 0.05), ("de", GERMAN, 0.05), ("vi", VIETNAMESE, 0.0),
    ("pl", POLISH, 0.0), ("is", ICELANDIC, 0.0), ("da", DANISH, 0.05),
]


def european_line(rng: random.Random) -> str:
    code, words, lig = rng.choice(EUROPEAN_LANGUAGES)
    lo, hi = (6, 20) if code == "vi" else (4, 14)
    line = build_line(rng, lambda: (sentence(rng, words, lo, hi, lig_rate=lig), True))
    r = rng.random()
    if r < (0.10 if code == "vi" else 0.03):
        line = unicodedata.normalize("NFD", line)
        line = fit(line, 200)
    elif r < 0.13:
        line = fit(line.upper(), 200)  # ß -> SS can lengthen the line
    return line


def _halfwidth_map():
    table = {}
    for cp in range(0xFF61, 0xFFA0):
        full = unicodedata.normalize("NFKC", chr(cp))
        if len(full) == 1:
            table[full] = chr(cp)
    table["\u3099"] = "\uff9e"  # combining voiced mark -> ﾞ
    table["\u309a"] = "\uff9f"  # combining semi-voiced mark -> ﾟ
    return table


HALFWIDTH = _halfwidth_map()


def halfwidth(word: str) -> str:
    return "".join(HALFWIDTH.get(c, c) for c in unicodedata.normalize("NFD", word))


def fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else ("\u3000" if c == " " else c) for c in text)


def mixed_piece(rng: random.Random):
    kind = rng.choices(
        ["greek", "cyrillic", "chinese", "japanese", "katakana", "halfwidth", "fullwidth", "english"],
        weights=[16, 16, 12, 16, 10, 8, 12, 10])[0]
    if kind == "greek":
        return sentence(rng, GREEK, 3, 9), True
    if kind == "cyrillic":
        return sentence(rng, CYRILLIC, 3, 9), True
    if kind == "chinese":
        n = rng.randint(2, 8)
        return "".join(rng.choice(CHINESE) for _ in range(n)) + rng.choice("。，！？、"), True
    if kind == "japanese":
        parts = []
        for _ in range(rng.randint(2, 6)):
            parts.append(rng.choice(KANJI))
            parts.append(rng.choice(HIRAGANA))
            if rng.random() < 0.3:
                parts.append(rng.choice(KATAKANA))
        return "".join(parts) + rng.choice("。、！？"), True
    if kind == "katakana":
        return "・".join(rng.choice(KATAKANA) for _ in range(rng.randint(1, 4))), True
    if kind == "halfwidth":
        return halfwidth(" ".join(rng.choice(KATAKANA) for _ in range(rng.randint(1, 4)))) + rng.choice(["\uff61", "", "\uff64"]), True
    if kind == "fullwidth":
        words = [rng.choice(ENGLISH) for _ in range(rng.randint(1, 4))]
        if rng.random() < 0.5:
            words[0] = capitalize(words[0])
        if rng.random() < 0.4:
            words.append(str(rng.randint(0, 99999)))
        return fullwidth(" ".join(words)) + rng.choice(["\uff01", "\uff1f", "", "\uff0e"]), True
    return sentence(rng, ENGLISH, 2, 6), True


def mixed_line(rng: random.Random) -> str:
    return build_line(rng, lambda: mixed_piece(rng))


CORPORA = {
    "english": english_line,
    "european": european_line,
    "mixed": mixed_line,
}


def write_corpus(path: str, make_line, rng: random.Random, target_bytes: int) -> tuple[int, int]:
    written = 0
    lines = 0
    chunk = []
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        while written < target_bytes:
            line = make_line(rng)
            assert 20 <= len(line) <= 200, (len(line), line)
            chunk.append(line)
            written += len(line.encode("utf-8")) + 1
            lines += 1
            if len(chunk) >= 4096:
                f.write("\n".join(chunk) + "\n")
                chunk.clear()
        if chunk:
            f.write("\n".join(chunk) + "\n")
    return written, lines


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    default_out = os.path.normpath(os.path.join(here, "..", "Corpora"))
    default_mb = float(os.environ.get("FOLD_CORPUS_MB", "20"))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=float, default=default_mb,
                        help="size of each corpus in MB of 10^6 bytes (default: $FOLD_CORPUS_MB or 20)")
    parser.add_argument("--out", default=default_out, help=f"output directory (default: {default_out})")
    parser.add_argument("--seed", default="fold-corpora-1", help="random seed (a string)")
    parser.add_argument("--only", action="append", choices=sorted(CORPORA), help="write only this corpus (repeatable)")
    args = parser.parse_args()
    if args.mb <= 0:
        parser.error("--mb must be positive")

    os.makedirs(args.out, exist_ok=True)
    target = int(args.mb * 1_000_000)
    for name, make_line in CORPORA.items():
        if args.only and name not in args.only:
            continue
        rng = random.Random(f"{args.seed}/{name}")
        path = os.path.join(args.out, f"{name}.txt")
        size, lines = write_corpus(path, make_line, rng, target)
        print(f"{path}: {size / 1e6:.2f} MB, {lines} lines", file=sys.stderr)


if __name__ == "__main__":
    main()

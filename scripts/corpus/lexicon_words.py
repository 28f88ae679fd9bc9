"""Lexicon tables, part 2: proper nouns, adjectives and closed-class words.

Data only (names, cities, countries, adjectives and their antonym groups,
numerals, pronouns, possessive determiners, locative prepositions);
lexicon.py loads them.
"""

# ---- proper nouns -------------------------------------------------------------
# Person names are identical in both languages (no translation choice).
NAMES = [("Paul", "m"), ("Thomas", "m"), ("Louis", "m"), ("Marc", "m"),
         ("Pierre", "m"), ("Oscar", "m"), ("Julien", "m"),
         ("Sophie", "f"), ("Julie", "f"), ("Claire", "f"), ("Marie", "f"),
         ("Emma", "f"), ("Anne", "f"), ("Alice", "f")]

CITIES = [("Paris", "Paris"), ("London", "Londres"), ("Rome", "Rome"),
          ("Berlin", "Berlin"), ("Madrid", "Madrid"), ("Lisbon", "Lisbonne"),
          ("Vienna", "Vienne"), ("Brussels", "Bruxelles"),
          ("Geneva", "Genève"), ("Venice", "Venise"), ("Athens", "Athènes"),
          ("Amsterdam", "Amsterdam"), ("Moscow", "Moscou"),
          ("Montreal", "Montréal"), ("Tokyo", "Tokyo"),
          ("Edinburgh", "Édimbourg"), ("Marseille", "Marseille"),
          ("Lyon", "Lyon")]

# (English tokens, French name, gender/number).  Feminine countries take
# "en"/"de" without article; masculine ones "au"/"du"; plural ones "aux"/"des".
COUNTRIES = [(["France"], "France", "f"), (["Italy"], "Italie", "f"),
             (["Spain"], "Espagne", "f"), (["Germany"], "Allemagne", "f"),
             (["England"], "Angleterre", "f"), (["Belgium"], "Belgique", "f"),
             (["Switzerland"], "Suisse", "f"), (["Greece"], "Grèce", "f"),
             (["Canada"], "Canada", "m"), (["Japan"], "Japon", "m"),
             (["Portugal"], "Portugal", "m"), (["Brazil"], "Brésil", "m"),
             (["Mexico"], "Mexique", "m"), (["Morocco"], "Maroc", "m"),
             (["the", "United", "States"], "États-Unis", "p"),
             (["the", "Netherlands"], "Pays-Bas", "p")]


# ---- adjectives -------------------------------------------------------------
# (english, french forms, position, applies-to spec, flags)
# forms: "ms" (regular: +e, +s, +es) or "ms fs mp fp" or "ms fs mp fp ms_before_vowel"
# position: pre = before the noun in French (petit, grand, beau...), post = after.
# flags: combo = may follow a "pre" adjective in a two-adjective phrase (the
#   English order opinion/size/age + colour/origin/shape matches French);
#   nopred = not used predicatively ("the car is new" would need "neuve");
#   state = a temporary state, so "was tired yesterday" makes sense.
ADJ_TABLE = [
    ("beautiful", "beau belle beaux belles bel", "pre", "P A B L V C O U N", ""),
    ("pretty", "joli", "pre", "C O U B L N", ""),
    ("good", "bon bonne bons bonnes", "pre", "F M D R S", ""),
    ("bad", "mauvais mauvaise mauvais mauvaises", "pre", "F M D R S", ""),
    ("small", "petit", "pre", "P A B L V C O U N F Y", ""),
    ("big", "grand", "pre", "A B L V O U N Y", ""),
    ("fat", "gros grosse gros grosses", "pre", "A", ""),
    ("young", "jeune jeune jeunes jeunes", "pre", "P A", ""),
    ("old", "vieux vieille vieux vieilles vieil", "pre", "P A B V C O U R", ""),
    ("new", "nouveau nouvelle nouveaux nouvelles nouvel", "pre", "V C O U R B",
     "nopred"),
    ("long", "long longue longs longues", "pre", "long", ""),
    ("red", "rouge rouge rouges rouges", "post", "V C color", "combo"),
    ("blue", "bleu", "post", "V C color eye", "combo"),
    ("green", "vert", "post", "V C color eye", "combo"),
    ("black", "noir", "post", "V C color eye", "combo"),
    ("white", "blanc blanche blancs blanches", "post", "V C color tooth", "combo"),
    ("yellow", "jaune jaune jaunes jaunes", "post", "V C color", "combo"),
    ("gray", "gris grise gris grises", "post", "V C color eye", "combo"),
    # "marron" is invariable: des chaussures marron
    ("brown", "marron marron marron marron", "post", "V C color eye", "combo"),
    ("pink", "rose rose roses roses", "post", "C color", "combo"),
    ("purple", "violet violette violets violettes", "post", "C color", "combo"),
    ("hot", "chaud", "post", "M D hotf", "state"),
    ("cold", "froid", "post", "M D hand", "state"),
    ("delicious", "délicieux délicieuse délicieux délicieuses", "post", "F M D", ""),
    ("sweet", "sucré", "post", "sweetf", ""),
    ("salty", "salé", "post", "M", ""),
    ("fresh", "frais fraîche frais fraîches", "post", "F M D", ""),
    ("happy", "heureux heureuse heureux heureuses", "post", "P A", "state"),
    ("sad", "triste triste tristes tristes", "post", "P A", "state"),
    ("tired", "fatigué", "post", "P A", "state"),
    ("sick", "malade malade malades malades", "post", "P A", "state"),
    ("rich", "riche riche riches riches", "post", "P", ""),
    ("poor", "pauvre pauvre pauvres pauvres", "post", "P", ""),
    ("funny", "drôle drôle drôles drôles", "post", "P A R S", ""),
    ("famous", "célèbre célèbre célèbres célèbres", "post", "P B S R", ""),
    ("strong", "fort", "post", "P A", ""),
    ("lazy", "paresseux paresseuse paresseux paresseuses", "post", "P A", ""),
    ("curious", "curieux curieuse curieux curieuses", "post", "P A", ""),
    ("serious", "sérieux sérieuse sérieux sérieuses", "post", "P", ""),
    ("nervous", "nerveux nerveuse nerveux nerveuses", "post", "P A", "state"),
    ("generous", "généreux généreuse généreux généreuses", "post", "P", ""),
    ("polite", "poli", "post", "P", ""),
    ("intelligent", "intelligent", "post", "P A", ""),
    ("clean", "propre propre propres propres", "post", "O U C V B hand", "state"),
    ("dirty", "sale sale sales sales", "post", "O U C V B L hand", "state"),
    ("fast", "rapide rapide rapides rapides", "post", "V A", ""),
    ("slow", "lent", "post", "V A", ""),
    ("heavy", "lourd", "post", "O U C R", ""),
    ("light", "léger légère légers légères", "post", "O C", ""),
    ("expensive", "cher chère chers chères", "post", "V O U C R B F", ""),
    ("empty", "vide vide vides vides", "post", "contain dcontain B V", "state"),
    ("full", "plein", "post", "contain dcontain B V", "state"),
    ("broken", "cassé", "post", "break", ""),
    ("dry", "sec sèche secs sèches", "post", "C dryf", "state"),
    ("wet", "mouillé", "post", "C A dryf", "state"),
    ("soft", "doux douce doux douces", "post", "soft", ""),
    ("round", "rond", "post", "round", "combo"),
    ("quiet", "calme calme calmes calmes", "post", "P A B L", "state"),
    ("noisy", "bruyant", "post", "P A B L", "state"),
    ("dangerous", "dangereux dangereuse dangereux dangereuses", "post", "A L", ""),
    ("modern", "moderne moderne modernes modernes", "post", "B V O U", "combo"),
    ("French", "français française français françaises", "post", "P V R origin", "combo"),
    ("Italian", "italien italienne italiens italiennes", "post", "P V R origin", "combo"),
    ("German", "allemand", "post", "P V R origin", "combo"),
    ("Spanish", "espagnol", "post", "P V R origin", "combo"),
    ("English", "anglais anglaise anglais anglaises", "post", "P V R origin", "combo"),
    ("Japanese", "japonais japonaise japonais japonaises", "post", "P V R origin", "combo"),
    ("Chinese", "chinois chinoise chinois chinoises", "post", "P V R origin", "combo"),
]

# Adjectives that contradict each other ("the big forest is small").
ANTONYMS = [{"big", "small"}, {"old", "young", "new"}, {"hot", "cold"},
            {"clean", "dirty"}, {"empty", "full"}, {"fast", "slow"},
            {"heavy", "light"}, {"happy", "sad"}, {"rich", "poor"},
            {"quiet", "noisy"}, {"dry", "wet"}, {"good", "bad"}, {"old", "modern"}]


# ---- closed-class words -------------------------------------------------------
NUMBERS = [("two", "deux"), ("three", "trois"), ("four", "quatre"),
           ("five", "cinq"), ("six", "six"), ("seven", "sept"),
           ("eight", "huit"), ("nine", "neuf"), ("ten", "dix"),
           ("eleven", "onze"), ("twelve", "douze"), ("thirteen", "treize"),
           ("fourteen", "quatorze"), ("fifteen", "quinze"),
           ("sixteen", "seize"), ("seventeen", "dix-sept"),
           ("eighteen", "dix-huit"), ("nineteen", "dix-neuf"),
           ("twenty", "vingt")]

# Subject / object pronouns:
# en_subj fr_subj person gender number en_obj fr_direct fr_indirect en_poss
# "you" is always the familiar singular "tu" (English does not mark the
# difference, so one choice is made once and for all); "they" is "ils";
# I/you/we count as masculine for agreement (je suis allé, nous sommes fatigués).
PRONOUNS = [("I", "je", 0, "m", "sg", "me", "me", "me", "my"),
            ("you", "tu", 1, "m", "sg", "you", "te", "te", "your"),
            ("he", "il", 2, "m", "sg", "him", "le", "lui", "his"),
            ("she", "elle", 2, "f", "sg", "her", "la", "lui", "her"),
            ("we", "nous", 3, "m", "pl", "us", "nous", "nous", "our"),
            ("they", "ils", 5, "m", "pl", "them", "les", "leur", "their")]

# Possessive determiners by possessor (index into PRONOUNS: my your his her our their):
# masculine sg / feminine sg / plural.  ma/ta/sa become mon/ton/son before a
# vowel (see postprocess_fr).
POSSESSIVES = {0: ("mon", "ma", "mes"), 1: ("ton", "ta", "tes"),
               2: ("son", "sa", "ses"), 3: ("son", "sa", "ses"),
               4: ("notre", "notre", "nos"), 5: ("leur", "leur", "leurs")}

# Locative prepositions: noun flag -> (English tokens, French tokens)
PREPS = {"in": (["in"], ["dans"]), "at": (["at"], ["à"]), "on": (["on"], ["sur"]),
         "near": (["near"], ["près", "de"]), "under": (["under"], ["sous"]),
         "behind": (["behind"], ["derrière"]),
         "front": (["in", "front", "of"], ["devant"])}

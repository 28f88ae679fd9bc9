#!/usr/bin/env python3
"""Deterministic generator of a synthetic English->French parallel corpus.

The sentences are produced by a small hand-written grammar over a real
bilingual lexicon, so every French sentence is a correct translation of its
English source and the word alignment is known exactly.

Usage:
    python3 scripts/make_corpus.py --out data/en-fr [--seed 1234]

Writes train/valid/test .en/.fr files (one sentence per line, UTF-8, LF) and
gold word alignments for valid and test (.align, Pharaoh "i-j" format, sorted,
i = 0-based English token index, j = 0-based French token index).  The same
seed always gives byte-identical files: only random.Random(seed) is used and
no iteration depends on set or hash order.  Valid/test English sources are
distinct from each other and from every training source.

Token indices refer to the project's `word` tokenizer: whitespace separates
chunks; a token is a maximal run of letters/marks/digits, keeping '-' between
two word characters (vingt-deux) and '.'/',' between two digits (3.5); an
apostrophe between two letters ends the token and stays on it (l'homme ->
l' homme); any other character is a token of its own.  Sentences are built as
token lists, written with single spaces except before . , ? ! ; : and after a
token ending in an apostrophe, and every written line is re-tokenized with a
Python copy of that tokenizer (word_tokenize below); the script aborts if the
result differs from the generator's tokens or an alignment is out of range.

Design (top to bottom):
  1. lexicon tables (nouns, adjectives, verbs, closed-class words)
  2. token / phrase primitives (every French token records the English tokens
     it translates; the alignment is read off those links at the end)
  3. phrase builders (noun phrases, prepositional phrases, clauses)
  4. sentence templates
  5. French/English surface post-processing (elision, contractions, a/an)
  6. tokenizer self-check, split, dedupe, write, statistics
Standard library only.
"""

import argparse
import os
import random
import sys
import unicodedata

# =============================================================================
# 1. LEXICON
# =============================================================================

# ---- nouns ------------------------------------------------------------------
# en_sg en_pl fr_sg fr_pl gender category [flags...]
# "-" as plural marks a mass noun (no "a", no plural, no numerals).
# Categories: P person, A animal, F countable food, M mass food, D drink,
#   V vehicle, O object, R readable/learnable, C clothes, S music/film,
#   B building/room, L outdoor place, N nature, Y body part, X part of a
#   building or vehicle (the door of the house), U furniture and other big
#   objects (nobody loses a bed).
# Person nouns take a possessive only if flagged kin or poss ("his woman"
# would come out as "sa femme" = his wife).
# Flags select nouns for particular verbs/adjectives (open, break, ...) or say
# which locative prepositions the noun takes (in at on near under behind
# front) and whether "go to" it is natural (to).
# French words starting with "h" in this table all have a mute h (l'homme).
NOUNS_TXT = """
man men homme hommes m P
woman women femme femmes f P
boy boys garçon garçons m P noold
girl girls fille filles f P noold
child children enfant enfants m P poss noold
baby babies bébé bébés m P poss noold
father fathers père pères m P kin one
mother mothers mère mères f P kin one
brother brothers frère frères m P kin
sister sisters sœur sœurs f P kin
son sons fils fils m P kin
uncle uncles oncle oncles m P kin
aunt aunts tante tantes f P kin
grandfather grandfathers grand-père grands-pères m P kin
grandmother grandmothers grand-mère grands-mères f P kin
husband husbands mari maris m P kin one possonly
wife wives femme femmes f P kin one possonly
friend friends ami amis m P kin
neighbor neighbors voisin voisins m P kin
king kings roi rois m P
queen queens reine reines f P
prince princes prince princes m P
princess princesses princesse princesses f P
teacher teachers professeur professeurs m P poss
doctor doctors médecin médecins m P poss
student students étudiant étudiants m P poss
farmer farmers fermier fermiers m P
driver drivers chauffeur chauffeurs m P poss
soldier soldiers soldat soldats m P
singer singers chanteur chanteurs m P
actor actors acteur acteurs m P
actress actresses actrice actrices f P
waiter waiters serveur serveurs m P
waitress waitresses serveuse serveuses f P
cook cooks cuisinier cuisiniers m P
baker bakers boulanger boulangers m P
painter painters peintre peintres m P
writer writers écrivain écrivains m P
pilot pilots pilote pilotes m P
tourist tourists touriste touristes m P
policeman policemen policier policiers m P
lawyer lawyers avocat avocats m P poss
engineer engineers ingénieur ingénieurs m P
artist artists artiste artistes m P
thief thieves voleur voleurs m P
fisherman fishermen pêcheur pêcheurs m P
dog dogs chien chiens m A color bark pet
cat cats chat chats m A color pet
horse horses cheval chevaux m A color pet
bird birds oiseau oiseaux m A color fly sing
mouse mice souris souris f A color
cow cows vache vaches f A
pig pigs cochon cochons m A pet
rabbit rabbits lapin lapins m A color pet
duck ducks canard canards m A
wolf wolves loup loups m A
bear bears ours ours m A
lion lions lion lions m A
elephant elephants éléphant éléphants m A
monkey monkeys singe singes m A
fox foxes renard renards m A
snake snakes serpent serpents m A
frog frogs grenouille grenouilles f A
hen hens poule poules f A
goat goats chèvre chèvres f A pet
tiger tigers tigre tigres m A
donkey donkeys âne ânes m A pet
squirrel squirrels écureuil écureuils m A
butterfly butterflies papillon papillons m A fly
bee bees abeille abeilles f A fly
turtle turtles tortue tortues f A
giraffe giraffes girafe girafes f A
animal animals animal animaux m A
apple apples pomme pommes f F
cake cakes gâteau gâteaux m F make sweetf
egg eggs œuf œufs m F
orange oranges orange oranges f F
banana bananas banane bananes f F sweetf
carrot carrots carotte carottes f F
tomato tomatoes tomate tomates f F
cookie cookies biscuit biscuits m F sweetf
sandwich sandwiches sandwich sandwichs m F make
pie pies tarte tartes f F make sweetf
strawberry strawberries fraise fraises f F sweetf
pear pears poire poires f F sweetf
lemon lemons citron citrons m F
onion onions oignon oignons m F
pizza pizzas pizza pizzas f F make hotf origin
melon melons melon melons m F sweetf
peach peaches pêche pêches f F sweetf
croissant croissants croissant croissants m F origin sweetf
bread - pain - m M make origin
cheese - fromage - m M origin
soup - soupe - f M make
rice - riz - m M
meat - viande - f M
chocolate - chocolat - m M origin sweetf
salad - salade - f M make
butter - beurre - m M
sugar - sucre - m M
fish - poisson - m M
honey - miel - m M sweetf
jam - confiture - f M make sweetf
water - eau - f D
milk - lait - m D
coffee - café - m D make origin sweetf
tea - thé - m D make origin sweetf
juice - jus - m D sweetf
wine - vin - m D origin
beer - bière - f D origin
lemonade - limonade - f D sweetf
car cars voiture voitures f V drive push wash
bicycle bicycles vélo vélos m V push wash
bus buses bus bus m V drive take wait
train trains train trains m V take wait
boat boats bateau bateaux m V build
plane planes avion avions m V take wait
truck trucks camion camions m V drive push wash
motorcycle motorcycles moto motos f V drive wash
taxi taxis taxi taxis m V drive take wait
tractor tractors tracteur tracteurs m V drive
book books livre livres m R open write finish recv long sale close
letter letters lettre lettres f R open write finish recv send long
newspaper newspapers journal journaux m R finish recv
story stories histoire histoires f R write finish learn long
map maps carte cartes f R
poem poems poème poèmes m R write finish learn long
lesson lessons leçon leçons f R finish learn long
magazine magazines magazine magazines m R finish recv
table tables table tables f U color surface paint build push round
chair chairs chaise chaises f U color surface paint build push
door doors porte portes f X color open paint push part close
window windows fenêtre fenêtres f X open break part close
roof roofs toit toits m X color part paint
wheel wheels roue roues f X color part
key keys clé clés f O color
bag bags sac sacs m O color open contain close
box boxes boîte boîtes f O color open contain paint push round close
cup cups tasse tasses f O color break dcontain dish
glass glasses verre verres m O break dcontain dish
plate plates assiette assiettes f O color break dish round
knife knives couteau couteaux m O dish
fork forks fourchette fourchettes f O dish
spoon spoons cuillère cuillères f O dish
bottle bottles bouteille bouteilles f O color open break dcontain close
umbrella umbrellas parapluie parapluies m O color open close
clock clocks horloge horloges f O color break round
phone phones téléphone téléphones m O color break
computer computers ordinateur ordinateurs m O color break
pen pens stylo stylos m O color
pencil pencils crayon crayons m O color
photo photos photo photos f O send recv
painting paintings tableau tableaux m O
ball balls ballon ballons m O color throw
toy toys jouet jouets m O color recv
gift gifts cadeau cadeaux m O open recv send
lamp lamps lampe lampes f O color break
bed beds lit lits m U color surface soft
mirror mirrors miroir miroirs m O break round
ring rings bague bagues f O
necklace necklaces collier colliers m O
jewel jewels bijou bijoux m O
candle candles bougie bougies f O color
blanket blankets couverture couvertures f O color soft
basket baskets panier paniers m O contain
rope ropes corde cordes f O long
ladder ladders échelle échelles f U
bucket buckets seau seaux m O color contain
hammer hammers marteau marteaux m O
stone stones pierre pierres f N throw
ticket tickets billet billets m O recv
wallet wallets portefeuille portefeuilles m O color
suitcase suitcases valise valises f O color open close
guitar guitars guitare guitares f O color
piano pianos piano pianos m U
hat hats chapeau chapeaux m C
shirt shirts chemise chemises f C
shoe shoes chaussure chaussures f C
coat coats manteau manteaux m C long
dress dresses robe robes f C long
skirt skirts jupe jupes f C
sweater sweaters pull pulls m C soft
scarf scarves écharpe écharpes f C long soft
glove gloves gant gants m C
sock socks chaussette chaussettes f C
jacket jackets veste vestes f C
song songs chanson chansons f S listen learn write long
movie movies film films m S watch long
music - musique - f S listen
radio radios radio radios f S listen
house houses maison maisons f B in near behind front color sale build
school schools école écoles f B at near front behind to visit build
church churches église églises f B in near front behind to visit build
hospital hospitals hôpital hôpitaux m B at near front to build
museum museums musée musées m B in near front to visit
library libraries bibliothèque bibliothèques f B in near to visit
shop shops magasin magasins m B in near front to sale
restaurant restaurants restaurant restaurants m B at near to sale
hotel hotels hôtel hôtels m B at near front to sale build
station stations gare gares f B at near front to
bank banks banque banques f B at near to
castle castles château châteaux m B in near front behind to visit sale build
farm farms ferme fermes f B at near to visit sale
bakery bakeries boulangerie boulangeries f B at near to sale
pharmacy pharmacies pharmacie pharmacies f B at near to
factory factories usine usines f B at near to visit build
university universities université universités f B at near to visit
theater theaters théâtre théâtres m B at near front to
cinema cinemas cinéma cinémas m B at near front to
office offices bureau bureaux m B at to
airport airports aéroport aéroports m B at near to
kitchen kitchens cuisine cuisines f B in
bedroom bedrooms chambre chambres f B in
park parks parc parcs m L in near to visit
garden gardens jardin jardins m L in to visit
forest forests forêt forêts f L in near visit
field fields champ champs m L in near
beach beaches plage plages f L on near to long dryf
market markets marché marchés m L at near to visit
street streets rue rues f L in long dryf
village villages village villages m L in near to visit
city cities ville villes f L in visit
island islands île îles f L on visit
mountain mountains montagne montagnes f L on to
zoo zoos zoo zoos m L at near to visit
harbor harbors port ports m L at near to visit
bridge bridges pont ponts m L on under near long build
road roads route routes f L on long dryf
pool pools piscine piscines f L in near to water
tree trees arbre arbres m N under near behind front plloc
flower flowers fleur fleurs f N color
river rivers rivière rivières f N in near long water
lake lakes lac lacs m N in near to water
sea seas mer mers f N in near to water
grass - herbe - f N on dryf
snow - neige - f N in
leaf leaves feuille feuilles f N color
star stars étoile étoiles f N watch
eye eyes œil yeux m Y eye
hand hands main mains f Y hand
nose noses nez nez m Y
ear ears oreille oreilles f Y
tooth teeth dent dents f Y tooth
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


def adj_clash(a, b):
    return a == b or any(a in g and b in g for g in ANTONYMS)


# ---- verbs --------------------------------------------------------------------
# French conjugation: present (je tu il nous vous ils), past participle,
# future stem.  Regular -er and -ir (finir) verbs are derived by rule;
# everything else (including -er spelling changes) is listed here.
IRREGULAR = {
    "être": ("suis es est sommes êtes sont", "été", "ser"),
    "avoir": ("ai as a avons avez ont", "eu", "aur"),
    "aller": ("vais vas va allons allez vont", "allé", "ir"),
    "venir": ("viens viens vient venons venez viennent", "venu", "viendr"),
    "revenir": ("reviens reviens revient revenons revenez reviennent", "revenu", "reviendr"),
    "partir": ("pars pars part partons partez partent", "parti", "partir"),
    "sortir": ("sors sors sort sortons sortez sortent", "sorti", "sortir"),
    "dormir": ("dors dors dort dormons dormez dorment", "dormi", "dormir"),
    "voir": ("vois vois voit voyons voyez voient", "vu", "verr"),
    "boire": ("bois bois boit buvons buvez boivent", "bu", "boir"),
    "vendre": ("vends vends vend vendons vendez vendent", "vendu", "vendr"),
    "entendre": ("entends entends entend entendons entendez entendent", "entendu", "entendr"),
    "attendre": ("attends attends attend attendons attendez attendent", "attendu", "attendr"),
    "perdre": ("perds perds perd perdons perdez perdent", "perdu", "perdr"),
    "lire": ("lis lis lit lisons lisez lisent", "lu", "lir"),
    "écrire": ("écris écris écrit écrivons écrivez écrivent", "écrit", "écrir"),
    "décrire": ("décris décris décrit décrivons décrivez décrivent", "décrit", "décrir"),
    "prendre": ("prends prends prend prenons prenez prennent", "pris", "prendr"),
    "comprendre": ("comprends comprends comprend comprenons comprenez comprennent",
                   "compris", "comprendr"),
    "apprendre": ("apprends apprends apprend apprenons apprenez apprennent",
                  "appris", "apprendr"),
    "ouvrir": ("ouvre ouvres ouvre ouvrons ouvrez ouvrent", "ouvert", "ouvrir"),
    "offrir": ("offre offres offre offrons offrez offrent", "offert", "offrir"),
    "connaître": ("connais connais connaît connaissons connaissez connaissent",
                  "connu", "connaîtr"),
    "recevoir": ("reçois reçois reçoit recevons recevez reçoivent", "reçu", "recevr"),
    "suivre": ("suis suis suit suivons suivez suivent", "suivi", "suivr"),
    "conduire": ("conduis conduis conduit conduisons conduisez conduisent",
                 "conduit", "conduir"),
    "construire": ("construis construis construit construisons construisez construisent",
                   "construit", "construir"),
    "peindre": ("peins peins peint peignons peignez peignent", "peint", "peindr"),
    "faire": ("fais fais fait faisons faites font", "fait", "fer"),
    "vouloir": ("veux veux veut voulons voulez veulent", "voulu", "voudr"),
    "pouvoir": ("peux peux peut pouvons pouvez peuvent", "pu", "pourr"),
    "devoir": ("dois dois doit devons devez doivent", "dû", "devr"),
    "rire": ("ris ris rit rions riez rient", "ri", "rir"),
    "sourire": ("souris souris sourit sourions souriez sourient", "souri", "sourir"),
    "courir": ("cours cours court courons courez courent", "couru", "courr"),
    "acheter": ("achète achètes achète achetons achetez achètent", "acheté", "achèter"),
    "appeler": ("appelle appelles appelle appelons appelez appellent", "appelé", "appeller"),
    "nettoyer": ("nettoie nettoies nettoie nettoyons nettoyez nettoient", "nettoyé", "nettoier"),
    "aboyer": ("aboie aboies aboie aboyons aboyez aboient", "aboyé", "aboier"),
    "envoyer": ("envoie envoies envoie envoyons envoyez envoient", "envoyé", "enverr"),
    "préférer": ("préfère préfères préfère préférons préférez préfèrent", "préféré", "préférer"),
}
FINIR_TYPE = {"finir", "choisir", "remplir", "nourrir"}
IMPARFAIT = {"être": "étais étais était étions étiez étaient".split(),
             "avoir": "avais avais avait avions aviez avaient".split()}
FUT_END = ["ai", "as", "a", "ons", "ez", "ont"]
# Verbs of state whose English simple past is rendered by the French imparfait
# (he wanted the book -> il voulait le livre); all others use the passé composé.
IMPARFAIT_VERBS = {"vouloir", "aimer", "adorer", "détester", "préférer", "connaître"}

# English verb forms "base s3 past" (+ particle), French infinitive, subject
# spec, object spec (for movement verbs the complement: to = "to the park",
# from, at = arrive at, enter = entrer dans, loc = a place, none), adverbs the
# verb takes when used intransitively.  kind: tr = transitive,
# di = ditransitive only, in = intransitive (avoir), mv = movement verb with
# être.  flags: generic = French uses the definite article for a generic
# object (j'aime les chats / le lait), intr = may also be used without object,
# both = transitive and ditransitive, stative = no time adverbial ("he loves
# her every week" is odd).
VERB_TABLE = [
    # kind, english, particle, french, subj, obj/complement, flags, adverbs
    ("tr", "see sees saw", "", "voir", "P A", "P A F V O C B L N R U", "", ""),
    ("tr", "eat eats ate", "", "manger", "P A", "F M", "intr", "slowly quickly well alot"),
    ("tr", "drink drinks drank", "", "boire", "P A", "D", "intr", "slowly alot"),
    ("tr", "buy buys bought", "", "acheter", "P", "F M D V O C R sale U", "", ""),
    ("tr", "sell sells sold", "", "vendre", "P", "F M D V O C R sale U", "both", ""),
    ("tr", "read reads read", "", "lire", "P", "R", "intr", "slowly quickly alot often"),
    ("tr", "write writes wrote", "", "écrire", "P", "write", "intr", "well slowly quickly often"),
    ("tr", "find finds found", "", "trouver", "P A", "A O C R F", "", ""),
    ("tr", "love loves loved", "", "adorer", "P", "P A F M D R S V C L N", "generic stative", ""),
    ("tr", "like likes liked", "", "aimer", "P", "A F M D R S V C L N", "generic stative", ""),
    ("tr", "hate hates hated", "", "détester", "P", "A F M D R S", "generic stative", ""),
    ("tr", "prefer prefers preferred", "", "préférer", "P", "F M D R S V C", "generic stative", ""),
    ("tr", "take takes took", "", "prendre", "P", "O C F R take", "", ""),
    ("tr", "open opens opened", "", "ouvrir", "P", "open", "", ""),
    ("tr", "close closes closed", "", "fermer", "P", "close", "", ""),
    ("tr", "watch watches watched", "", "regarder", "P A", "P A V watch", "", ""),
    ("tr", "clean cleans cleaned", "", "nettoyer", "P", "O C V B U", "", ""),
    ("tr", "carry carries carried", "", "porter", "P", "O C F R U", "", ""),
    ("tr", "hear hears heard", "", "entendre", "P A", "P A V listen", "", ""),
    ("tr", "know knows knew", "", "connaître", "P", "P B L CITY COUNTRY learn", "stative", ""),
    ("tr", "meet meets met", "", "rencontrer", "P", "P", "", ""),
    ("tr", "visit visits visited", "", "visiter", "P", "visit CITY COUNTRY", "", ""),
    ("tr", "call calls called", "", "appeler", "P", "P A", "", ""),
    ("tr", "wait waits waited", "for", "attendre", "P A", "P wait", "", ""),
    ("tr", "look looks looked", "for", "chercher", "P A", "P A O C R F", "", ""),
    ("tr", "listen listens listened", "to", "écouter", "P", "P listen", "", ""),
    ("tr", "help helps helped", "", "aider", "P", "P", "", ""),
    ("tr", "forget forgets forgot", "", "oublier", "P", "O C R", "", ""),
    ("tr", "lose loses lost", "", "perdre", "P", "O C R", "", ""),
    ("tr", "receive receives received", "", "recevoir", "P", "recv", "", ""),
    ("tr", "choose chooses chose", "", "choisir", "P", "O C F R V U", "", ""),
    ("tr", "repair repairs repaired", "", "réparer", "P", "V break part", "", ""),
    ("tr", "bring brings brought", "", "apporter", "P", "F M D O R C", "both", ""),
    ("tr", "show shows showed", "", "montrer", "P", "O R C A V", "both", ""),
    ("tr", "hide hides hid", "", "cacher", "P", "O F R C", "", ""),
    ("tr", "catch catches caught", "", "attraper", "P A", "A throw", "", ""),
    ("tr", "follow follows followed", "", "suivre", "P A", "P A V", "", ""),
    ("tr", "drive drives drove", "", "conduire", "P", "drive", "", ""),
    ("tr", "break breaks broke", "", "casser", "P", "break", "", ""),
    ("tr", "cut cuts cut", "", "couper", "P", "F M rope", "", ""),
    ("tr", "paint paints painted", "", "peindre", "P", "paint B", "", ""),
    ("tr", "build builds built", "", "construire", "P", "build", "", ""),
    ("tr", "wash washes washed", "", "laver", "P", "wash C pet dish", "", ""),
    ("tr", "draw draws drew", "", "dessiner", "P", "P A B N V O U", "intr", "well often"),
    ("tr", "push pushes pushed", "", "pousser", "P", "push", "", ""),
    ("tr", "prepare prepares prepared", "", "préparer", "P", "F M D", "", ""),
    ("tr", "make makes made", "", "faire", "P", "make", "", ""),
    ("tr", "feed feeds fed", "", "nourrir", "P", "A", "", ""),
    ("tr", "kiss kisses kissed", "", "embrasser", "P", "P", "", ""),
    ("tr", "fill fills filled", "", "remplir", "P", "contain dcontain", "", ""),
    ("tr", "finish finishes finished", "", "finir", "P", "F M D finish", "", ""),
    ("tr", "keep keeps kept", "", "garder", "P", "O R C A U", "", ""),
    ("tr", "throw throws threw", "", "lancer", "P", "throw", "", ""),
    ("tr", "touch touches touched", "", "toucher", "P", "P A O C V N U", "", ""),
    ("tr", "want wants wanted", "", "vouloir", "P", "F M D O C V R A", "stative", ""),
    ("tr", "describe describes described", "", "décrire", "P", "P A B L O V CITY U", "", ""),
    ("tr", "understand understands understood", "", "comprendre", "P", "P learn", "stative", ""),
    ("tr", "learn learns learned", "", "apprendre", "P", "learn", "", ""),
    ("tr", "send sends sent", "", "envoyer", "P", "send", "both", ""),
    ("di", "give gives gave", "", "donner", "P", "O F R C", "", ""),
    ("di", "offer offers offered", "", "offrir", "P", "O F R C", "", ""),
    ("in", "sleep sleeps slept", "", "dormir", "P A", "", "", "well alot"),
    ("in", "sing sings sang", "", "chanter", "P sing", "", "", "well loudly often always alot"),
    ("in", "dance dances danced", "", "danser", "P", "", "", "well often alot"),
    ("in", "work works worked", "", "travailler", "P", "", "", "well slowly quickly alot often always"),
    ("in", "laugh laughs laughed", "", "rire", "P", "", "", "loudly often alot always"),
    ("in", "cry cries cried", "", "pleurer", "P", "", "", "often loudly alot"),
    ("in", "run runs ran", "", "courir", "P A", "", "", "quickly slowly often alot"),
    ("in", "swim swims swam", "", "nager", "P A", "", "", "well quickly slowly often"),
    ("in", "walk walks walked", "", "marcher", "P A", "", "", "slowly quickly alot often"),
    ("in", "smile smiles smiled", "", "sourire", "P", "", "", "often always"),
    ("in", "play plays played", "", "jouer", "P A", "", "", "well often alot"),
    ("in", "travel travels traveled", "", "voyager", "P", "", "", "often alot"),
    ("in", "speak speaks spoke", "", "parler", "P", "", "", "slowly quickly loudly well often alot"),
    ("in", "jump jumps jumped", "", "sauter", "P A", "", "", "often"),
    ("in", "shout shouts shouted", "", "crier", "P", "", "", "loudly often"),
    ("in", "bark barks barked", "", "aboyer", "bark", "", "", "loudly often always"),
    ("in", "fly flies flew", "", "voler", "fly", "", "", "quickly slowly"),
    ("in", "cook cooks cooked", "", "cuisiner", "P", "", "", "well often alot"),
    # movement verbs: passé composé with être, participle agrees with subject
    ("mv", "go goes went", "", "aller", "P A", "to", "", ""),
    ("mv", "come comes came", "", "venir", "P A", "from", "", ""),
    ("mv", "come comes came", "back", "revenir", "P A", "from", "", ""),
    ("mv", "arrive arrives arrived", "", "arriver", "P", "at", "", ""),
    ("mv", "leave leaves left", "", "partir", "P A", "none", "", ""),
    ("mv", "enter enters entered", "", "entrer", "P A", "enter", "", ""),
    ("mv", "go goes went", "out", "sortir", "P A", "none", "", ""),
    ("mv", "fall falls fell", "", "tomber", "P A", "loc", "", ""),
    ("mv", "stay stays stayed", "", "rester", "P A", "loc", "", ""),
]

# Manner/frequency adverbs: english, french, English position (pre = before
# the lexical verb, post = after it), French position (mid = between
# auxiliary and participle in the passé composé, post = after the participle).
ADVERBS = {
    "well": (["well"], "bien", "post", "mid"),
    "quickly": (["quickly"], "vite", "post", "mid"),
    "slowly": (["slowly"], "lentement", "post", "post"),
    "loudly": (["loudly"], "fort", "post", "post"),
    "alot": (["a", "lot"], "beaucoup", "post", "mid"),
    "often": (["often"], "souvent", "pre", "mid"),
    "always": (["always"], "toujours", "pre", "mid"),
}

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

# =============================================================================
# Lexicon loading
# =============================================================================


class Noun:
    def __init__(self, line):
        parts = line.split()
        self.en_sg, self.en_pl, self.fr_sg, self.fr_pl, self.g, self.cat = parts[:6]
        self.flags = parts[6:]
        self.mass = self.en_pl == "-"
        self.preps = [f for f in self.flags if f in PREPS]

    def matches(self, spec):
        return self.cat in spec or any(f in spec for f in self.flags)

    def __repr__(self):
        return "Noun(%s)" % self.en_sg


# "small son" would read as petit-fils (grandson), "beautiful brother" as
# beau-frère (brother-in-law), "small friend" as petit ami (boyfriend).
KIN_BLOCKED_ADJS = {"small", "big", "beautiful"}


class Adj:
    def __init__(self, row):
        self.en, forms, self.pos, spec, flags = row
        f = forms.split()
        if len(f) == 1:
            ms = f[0]
            fs = ms if ms.endswith("e") else ms + "e"
            mp = ms if ms[-1] in "sx" else ms + "s"
            f = [ms, fs, mp, fs + "s"]
        self.ms, self.fs, self.mp, self.fp = f[:4]
        self.msv = f[4] if len(f) > 4 else None  # bel, nouvel, vieil
        self.spec = spec.split()
        self.combo = "combo" in flags
        self.pred = "nopred" not in flags
        self.state = "state" in flags

    def form(self, g, n, before_vowel=False):
        if g == "m" and n == "sg" and before_vowel and self.msv:
            return self.msv
        return {("m", "sg"): self.ms, ("f", "sg"): self.fs,
                ("m", "pl"): self.mp, ("f", "pl"): self.fp}[(g, n)]

    def fits(self, noun):
        if "kin" in noun.flags and self.en in KIN_BLOCKED_ADJS:
            return False
        if "noold" in noun.flags and self.en == "old":
            return False  # vieux garçon / vieille fille are idioms (bachelor, spinster)
        return noun.matches(self.spec)


class Verb:
    def __init__(self, row):
        (self.kind, en, part, self.inf, subj, comp, flags, advs) = row
        self.base, self.s3, self.past = en.split()
        self.particle = part.split()
        self.subj = subj.split()
        self.comp = comp.split()
        self.flags = flags.split()
        self.advs = advs.split()
        self.generic = "generic" in self.flags
        self.aux = "être" if self.kind == "mv" else "avoir"
        # French conjugation
        if self.inf in IRREGULAR:
            pres, self.pp, self.fut = IRREGULAR[self.inf]
            self.pres = pres.split()
        elif self.inf in FINIR_TYPE:
            st = self.inf[:-2]
            self.pres = [st + e for e in ("is", "is", "it", "issons", "issez", "issent")]
            self.pp, self.fut = st + "i", self.inf
        else:
            assert self.inf.endswith("er"), self.inf
            st = self.inf[:-2]
            nous = st + ("eons" if st.endswith("g") else "ons")
            if st.endswith("c"):
                nous = st[:-1] + "çons"
            self.pres = [st + "e", st + "es", st + "e", nous, st + "ez", st + "ent"]
            self.pp, self.fut = st + "é", self.inf
        assert len(self.pres) == 6

    def fut_form(self, p):
        return self.fut + FUT_END[p]

    def imparfait(self, p):
        """Imparfait from the nous stem: voulons -> voul-ait, mangeons -> mange-ait."""
        if self.inf in IMPARFAIT:
            return IMPARFAIT[self.inf][p]
        stem = self.pres[3][:-3]
        return stem + ["ais", "ais", "ait", "ions", "iez", "aient"][p]

    def __repr__(self):
        return "Verb(%s/%s)" % (self.base, self.inf)


def pp_form(ms, g, n):
    """Past participle agreement: écrit/écrite/écrits/écrites, pris/prise/pris."""
    fs = ms + "e"
    if n == "sg":
        return ms if g == "m" else fs
    return (ms if ms.endswith("s") else ms + "s") if g == "m" else fs + "s"


NOUN_LIST = [Noun(l) for l in NOUNS_TXT.strip().splitlines() if l.strip()]
ADJS = [Adj(r) for r in ADJ_TABLE]
VERBS = [Verb(r) for r in VERB_TABLE]
VERB_BY_INF = {v.inf: v for v in VERBS}
ETRE = Verb(("in", "be is was", "", "être", "", "", "", ""))
AVOIR = Verb(("in", "have has had", "", "avoir", "", "", "", ""))
POUVOIR = Verb(("in", "can can could", "", "pouvoir", "", "", "", ""))
DEVOIR = Verb(("in", "must must must", "", "devoir", "", "", "", ""))
VOULOIR = VERB_BY_INF["vouloir"]


def nouns_matching(spec, extra=None):
    out = [n for n in NOUN_LIST if n.matches(spec)]
    if extra:
        out = [n for n in out if extra(n)]
    return out


# =============================================================================
# 2. TOKENS AND PHRASES
# =============================================================================
# An English token is a Tok without links.  A French token is a Tok whose
# `links` list holds the English Tok objects it translates.  Phrases are
# built in each language's own word order; the alignment is computed at the
# very end from object identity, so reordering never needs index bookkeeping.

class Tok:
    __slots__ = ("w", "links", "tag")

    def __init__(self, w, links=(), tag=None):
        self.w = w
        self.links = list(links)
        self.tag = tag

    def __repr__(self):
        return self.w


def E(w, tag=None):
    return Tok(w, (), tag)


def F(w, *links, tag=None):
    flat = []
    for l in links:
        if l is None:
            continue
        if isinstance(l, (list, tuple)):
            flat.extend(l)
        else:
            flat.append(l)
    return Tok(w, flat, tag)


class NP:
    """A noun phrase in both languages plus the features agreement needs."""

    def __init__(self, en, fr, p, g, n, noun=None, kind="noun", pron=None):
        self.en, self.fr = en, fr
        self.p, self.g, self.n = p, g, n  # person index 0..5, gender, number
        self.noun = noun
        self.kind = kind  # noun | name | pron | rel
        self.pron = pron  # PRONOUNS row for pronouns


def person_of(n):
    return 2 if n == "sg" else 5


# =============================================================================
# 3. PHRASE BUILDERS
# =============================================================================

def fr_article_def(g, n, links):
    w = "les" if n == "pl" else ("le" if g == "m" else "la")
    return F(w, links, tag="art")


def pick_adjs(rng, noun, p_pre=0.2, p_post=0.27, p_both=0.07, avoid=()):
    """Choose 0, 1 or 2 adjectives compatible with the noun."""
    pres = [a for a in ADJS if a.pos == "pre" and a.fits(noun) and a.en not in avoid]
    posts = [a for a in ADJS if a.pos == "post" and a.fits(noun) and a.en not in avoid]
    r = rng.random()
    if r < p_both:
        combos = [a for a in posts if a.combo]
        if pres and combos:
            a, b = rng.choice(pres), rng.choice(combos)
            if not adj_clash(a.en, b.en):  # no "old modern photo"
                return a, b
    elif r < p_both + p_pre:
        if pres:
            return rng.choice(pres), None
    elif r < p_both + p_pre + p_post:
        if posts:
            return None, rng.choice(posts)
    return None, None


def noun_phrase(rng, noun, det, n="sg", pre=None, post=None, neg=False,
                generic=False, poss=None, number=None):
    """Build a noun phrase.

    det: the | a | bare | this | poss | num | thenum
    neg: the phrase is the direct object of a negated verb, so French
         indefinite/partitive articles become "de" (il ne mange pas de pain).
    generic: object of aimer/adorer/détester/préférer: an English bare noun is
         generic and takes the definite article in French (il aime les chats).
    """
    if noun.mass:
        n = "sg"
    g = noun.g
    en_noun = E(noun.en_pl if n == "pl" else noun.en_sg)
    en, fr = [], []
    fr_det = []
    if det == "the":
        t = E("the")
        en.append(t)
        fr_det = [fr_article_def(g, n, t)]
    elif det == "a":
        assert n == "sg" and not noun.mass
        t = E("a", tag="a_art")
        en.append(t)
        if neg and not generic:
            fr_det = [F("de", t, tag="de")]
        else:
            fr_det = [F("un" if g == "m" else "une", t)]
    elif det == "bare":
        # English bare plural / mass noun.  French needs an article, aligned
        # to the noun it belongs to.
        if generic:
            fr_det = [fr_article_def(g, n, en_noun)]
        elif neg:
            fr_det = [F("de", en_noun, tag="de")]
        elif noun.mass:
            fr_det = [F("de", en_noun, tag="de"), fr_article_def(g, n, en_noun)]
        elif pre is not None:
            # des -> de before a pre-nominal adjective: de beaux chevaux
            fr_det = [F("de", en_noun, tag="de")]
        else:
            fr_det = [F("des", en_noun)]
    elif det == "this":
        t = E("these" if n == "pl" else "this")
        en.append(t)
        if n == "pl":
            fr_det = [F("ces", t)]
        elif g == "m":
            fr_det = [F("ce", t, tag="dem")]
        else:
            fr_det = [F("cette", t)]
    elif det == "poss":
        row = PRONOUNS[poss]
        t = E(row[8])
        en.append(t)
        ms, fs, pl = POSSESSIVES[poss]
        w = pl if n == "pl" else (ms if g == "m" else fs)
        fr_det = [F(w, t, tag="possf" if w in ("ma", "ta", "sa") else None)]
    elif det in ("num", "thenum"):
        assert n == "pl"
        if det == "thenum":
            t = E("the")
            en.append(t)
            fr_det.append(fr_article_def(g, n, t))
        ne, nf = number
        t = E(ne)
        en.append(t)
        fr_det.append(F(nf, t))
    else:
        raise ValueError(det)

    en_pre = E(pre.en) if pre else None
    en_post = E(post.en) if post else None
    for t in (en_pre, en_post):
        if t is not None:
            en.append(t)
    en.append(en_noun)

    fr_noun_w = noun.fr_pl if n == "pl" else noun.fr_sg
    fr.extend(fr_det)
    if pre is not None:
        fr.append(F(pre.form(g, n, before_vowel=fr_vowel(fr_noun_w)), en_pre))
    fr.append(F(fr_noun_w, en_noun))
    if post is not None:
        fr.append(F(post.form(g, n), en_post))
    return NP(en, fr, person_of(n), g, n, noun=noun)


def name_np(name):
    w, g = name
    t = E(w)
    return NP([t], [F(w, t)], 2, g, "sg", kind="name")


def pronoun_np(idx):
    row = PRONOUNS[idx]
    t = E(row[0])
    return NP([t], [F(row[1], t, tag="el" if row[1] == "je" else None)],
              row[2], row[3], row[4], kind="pron", pron=row)


DET_WEIGHTS = {
    # role: [(det, weight)]
    "subj": [("the", 45), ("a", 14), ("poss", 18), ("this", 8), ("num", 8), ("thenum", 3)],
    # "a blanket was modern" is odd: copula subjects are definite
    "cop": [("the", 50), ("poss", 25), ("this", 12), ("thenum", 5)],
    "obj": [("the", 34), ("a", 20), ("bare", 16), ("poss", 16), ("this", 7), ("num", 7)],
    "loc": [("the", 82), ("poss", 13), ("this", 5)],
    "recip": [("the", 50), ("poss", 32), ("a", 8), ("this", 10)],
}


def wchoice(rng, pairs):
    total = sum(w for _, w in pairs)
    r = rng.random() * total
    for item, w in pairs:
        r -= w
        if r < 0:
            return item
    return pairs[-1][0]


def random_np(rng, noun, role, neg=False, generic=False, adjs=True, plural=None,
              allow_of=True, avoid=()):
    """A noun phrase with a random determiner, number and adjectives."""
    dets = DET_WEIGHTS[role]
    if noun.mass:
        dets = [(d, w) for d, w in dets if d in ("the", "bare", "this", "poss")]
        if role == "loc":
            dets = [("the", 1)]
    if generic:
        dets = [(d, w) for d, w in dets if d in ("the", "bare", "poss", "this")]
    if noun.cat == "P" and not ({"kin", "poss"} & set(noun.flags)):
        dets = [(d, w) for d, w in dets if d != "poss"]
    if "kin" in noun.flags:
        dets = [(d, w) for d, w in dets if d != "bare"]  # "he sees brothers"
    if role == "loc" and noun.cat != "B" and noun.en_sg != "garden":
        dets = [(d, w) for d, w in dets if d != "poss"]  # "near their sea"
    det = wchoice(rng, dets)
    if det == "poss" and noun.mass and rng.random() < 0.7:
        det = "the"
    if "one" in noun.flags:
        dets = [(d, w) for d, w in dets if d not in ("num", "thenum", "bare")]
        det = wchoice(rng, dets)
    if "possonly" in noun.flags:
        det = "poss"  # "her husband", never "a husband" (une femme = a woman)
    if det in ("num", "thenum"):
        n = "pl"
    elif det == "a":
        n = "sg"
    elif det == "bare":
        n = "sg" if noun.mass else "pl"
    elif plural is not None:
        n = "pl" if plural else "sg"
    else:
        n = "pl" if rng.random() < 0.3 else "sg"
    if noun.mass or "one" in noun.flags:
        n = "sg"
    pre, post = pick_adjs(rng, noun, avoid=avoid) if adjs else (None, None)
    poss = rng.choice([0, 1, 2, 3, 4, 5]) if det == "poss" else None
    if "possonly" in noun.flags:
        poss = rng.choice([0, 1, 2, 3])  # my/your/his/her husband, not "our husband"
    number = rng.choice(NUMBERS) if det in ("num", "thenum") else None
    np_ = noun_phrase(rng, noun, det, n, pre, post, neg=neg, generic=generic,
                      poss=poss, number=number)
    if allow_of and det in ("the", "a") and rng.random() < 0.14:
        np_ = maybe_of(rng, np_)
    return np_


def of_complement(rng, head):
    """Complement of a kin or part noun: the mother of the boy / la mère du garçon."""
    noun = head.noun
    if "kin" in noun.flags:
        if rng.random() < 0.3:
            return name_np(rng.choice(NAMES))
        comp_noun = rng.choice(nouns_matching(["P"], lambda x: x is not noun))
    elif "part" in noun.flags:
        spec = ["V"] if noun.en_sg == "wheel" else ["B", "V"]
        cands = nouns_matching(spec)
        if noun.en_sg == "roof":
            cands = [c for c in cands if c.cat == "B" and c.en_sg not in
                     ("kitchen", "bedroom", "office")]
        if noun.en_sg == "wheel":
            cands = [c for c in cands if c.en_sg in ("car", "bicycle", "bus", "truck",
                                                     "motorcycle", "taxi", "tractor")]
        if noun.en_sg in ("door", "window"):
            cands = [c for c in cands if c.en_sg not in ("bicycle", "motorcycle")]
        comp_noun = rng.choice(cands)
    else:
        return None
    det = wchoice(rng, [("the", 70), ("poss", 30)])
    poss = rng.choice([0, 1, 2, 3, 4, 5]) if det == "poss" else None
    n = "pl" if rng.random() < 0.2 and "one" not in comp_noun.flags else "sg"
    return noun_phrase(rng, comp_noun, det, n, poss=poss)


def maybe_of(rng, head):
    comp = of_complement(rng, head)
    if comp is None:
        return head
    of = E("of")
    head.en = head.en + [of] + comp.en
    head.fr = head.fr + [F("de", of, tag="de")] + comp.fr
    return head


# ---- places -----------------------------------------------------------------

def place_pp(rng, prep, noun):
    """Locative PP: in the garden / dans le jardin, at the market / au marché."""
    en_p, fr_p = PREPS[prep]
    ets = [E(w) for w in en_p]
    fts = [F(w, ets, tag={"de": "de", "à": "a"}.get(w)) for w in fr_p]
    # places are singular (to the park), except natural things: near the trees
    plural = "plloc" in noun.flags and rng.random() < 0.35
    np_ = random_np(rng, noun, "loc", adjs=rng.random() < 0.5, allow_of=False,
                    plural=plural)
    return ets + np_.en, fts + np_.fr


def city_pp(rng, en_prep, fr_prep):
    ce, cf = rng.choice(CITIES)
    p, c = E(en_prep), E(ce)
    return [p, c], [F(fr_prep, p, tag={"de": "de", "à": "a"}.get(fr_prep)), F(cf, c)]


def country_phrase(country, en_prep, kind):
    """kind: to | in | from | obj (visiter la France).  Returns (en, fr)."""
    en_words, fr_name, gn = country
    p = E(en_prep) if en_prep else None
    en_toks = [E(w) for w in en_words]
    the = en_toks[0] if en_words[0] == "the" else None
    name_toks = [t for t in en_toks if t is not the]
    en = ([p] if p else []) + en_toks
    fr_country = F(fr_name, name_toks)
    if gn == "p":
        art = F("les", the, tag="art")
    else:
        art = F("le" if gn == "m" else "la", name_toks, tag="art")
    if kind == "obj":
        return en, [art, fr_country]
    if kind in ("to", "in"):
        if gn == "f":
            return en, [F("en", p), fr_country]
        return en, [F("à", p, tag="a"), art, fr_country]  # au Canada, aux États-Unis
    if kind == "from":
        if gn == "f":
            return en, [F("de", p, tag="de"), fr_country]  # de France, d'Italie
        return en, [F("de", p, tag="de"), art, fr_country]  # du Canada, des États-Unis
    raise ValueError(kind)


LOC_NOUNS = [n for n in NOUN_LIST if n.preps and n.cat in ("B", "L", "N")]
WATER_NOUNS = [n for n in LOC_NOUNS if "water" in n.flags]


def random_locative(rng, water=False, city=True, cats=("B", "L", "N")):
    """A locative PP for a person/animal/vehicle: in the park, near the river...
    Only swimmers get "in the lake"; others are at most near the water."""
    if city and rng.random() < 0.1:
        return city_pp(rng, "in", "à")
    if water:
        noun = rng.choice(WATER_NOUNS)
        return place_pp(rng, "in", noun)
    noun = rng.choice([n for n in LOC_NOUNS if n.cat in cats])
    preps = noun.preps
    if "water" in noun.flags:
        preps = ["near"]
    return place_pp(rng, rng.choice(preps), noun)


SURFACES = [n for n in NOUN_LIST if "surface" in n.flags]
CONTAINERS = [n for n in NOUN_LIST if "contain" in n.flags]
DCONTAINERS = [n for n in NOUN_LIST if "dcontain" in n.flags]


def thing_locative(rng, thing):
    """Where a thing can be: on/under the table, in the box, in the glass."""
    if thing.cat == "D":
        return place_pp(rng, "in", rng.choice(DCONTAINERS))
    if thing.cat == "V":
        # vehicles stand near/in front of/behind buildings, or in the street
        noun = rng.choice([n for n in LOC_NOUNS if set(n.preps) & {"near", "front", "behind"}]
                          + [n for n in LOC_NOUNS if n.en_sg in ("street", "road")])
        preps = [p for p in noun.preps if p in ("near", "front", "behind")] or noun.preps
        return place_pp(rng, rng.choice(preps), noun)
    if thing.cat in ("P", "A", "U"):
        return random_locative(rng)
    if thing.cat == "M":
        return place_pp(rng, "on", rng.choice([n for n in SURFACES if n.en_sg == "table"]))
    if rng.random() < 0.55:
        noun = rng.choice(SURFACES)
        return place_pp(rng, rng.choice(["on", "on", "under"]), noun)
    return place_pp(rng, "in", rng.choice(CONTAINERS))


# ---- time expressions ------------------------------------------------------

def time_expr(rng, tense):
    """Sentence-final time adverbial compatible with the tense."""
    def simple(pairs):
        ens = [E(w) for w in pairs[0]]
        frs = []
        for w, idx in pairs[1]:
            frs.append(F(w, [ens[i] for i in idx], tag="art" if w in ("la", "le") else None))
        return ens, frs

    if tense == "pres":
        opts = [(["every", "day"], [("chaque", [0]), ("jour", [1])]),
                (["every", "morning"], [("chaque", [0]), ("matin", [1])]),
                (["every", "evening"], [("chaque", [0]), ("soir", [1])]),
                (["every", "week"], [("chaque", [0]), ("semaine", [1])]),
                (["today"], [("aujourd'", [0]), ("hui", [0])])]
        return simple(rng.choice(opts))
    if tense == "past":
        r = rng.random()
        if r < 0.2:
            ne, nf = rng.choice(NUMBERS[:9])
            unit = rng.choice([("days", "jours"), ("years", "ans"), ("weeks", "semaines")])
            n, u, ago = E(ne), E(unit[0]), E("ago")
            return [n, u, ago], [F("il", ago), F("y", ago), F("a", ago), F(nf, n), F(unit[1], u)]
        opts = [(["yesterday"], [("hier", [0])]),
                (["last", "night"], [("hier", [0]), ("soir", [1])]),
                (["last", "week"], [("la", [1]), ("semaine", [1]), ("dernière", [0])]),
                (["last", "year"], [("la", [1]), ("année", [1]), ("dernière", [0])]),
                (["last", "month"], [("le", [1]), ("mois", [1]), ("dernier", [0])]),
                (["this", "morning"], [("ce", [0]), ("matin", [1])]),
                (["today"], [("aujourd'", [0]), ("hui", [0])])]
        return simple(rng.choice(opts))
    r = rng.random()
    if r < 0.15:
        ne, nf = rng.choice(NUMBERS[:9])
        unit = rng.choice([("days", "jours"), ("weeks", "semaines")])
        i, n, u = E("in"), E(ne), E(unit[0])
        return [i, n, u], [F("dans", i), F(nf, n), F(unit[1], u)]
    opts = [(["tomorrow"], [("demain", [0])]),
            (["tomorrow", "morning"], [("demain", [0]), ("matin", [1])]),
            (["next", "week"], [("la", [1]), ("semaine", [1]), ("prochaine", [0])]),
            (["next", "year"], [("la", [1]), ("année", [1]), ("prochaine", [0])]),
            (["next", "month"], [("le", [1]), ("mois", [1]), ("prochain", [0])]),
            (["tonight"], [("ce", [0]), ("soir", [0])]),
            (["soon"], [("bientôt", [0])])]
    return simple(rng.choice(opts))


# ---- clauses ------------------------------------------------------------------

class Clitic:
    """An object pronoun: English word, French word, and agreement features."""

    def __init__(self, en, fr, g, n):
        self.en, self.fr, self.g, self.n = en, fr, g, n


def anaphor(np_):
    """Direct-object pronoun referring back to an earlier noun phrase."""
    if np_.n == "pl":
        return Clitic("them", "les", np_.g, "pl")
    if np_.noun is not None and np_.noun.cat == "P" or np_.kind == "name":
        return Clitic("him" if np_.g == "m" else "her", "le" if np_.g == "m" else "la",
                      np_.g, "sg")
    return Clitic("it", "le" if np_.g == "m" else "la", np_.g, "sg")


def en_ambiguous_past(verb, subj, tense, pol, question):
    """English "read"/"cut" are the same in present and past for I/you/we/they."""
    return (tense == "past" and pol == "aff" and not question
            and verb.past == verb.base and subj.p != 2)


def clause(subj, verb, tense, pol="aff", question=False, obj=None, dclitic=None,
           iclitic=None, recip=None, adv=None, post=None, time=None, modal=None,
           rel_gap=None):
    """Build a finite clause.

    subj: NP.  verb: Verb.  tense: pres | past | fut.  pol: aff | neg | never.
    obj: direct-object NP (after the verb in both languages).
    dclitic / iclitic: direct / indirect object pronoun (before the French verb).
    recip: "to NP" recipient for ditransitives.
    adv: key of ADVERBS.  post: (en, fr) tokens appended (PPs).  time: (en, fr).
    modal: None | can | must | want (then verb is the infinitive).
    rel_gap: NP features of an object relativised away (participle agreement).
    Returns (en_tokens, fr_tokens).
    """
    p = subj.p
    s3 = p == 2
    if ("stative" in verb.flags or pol == "never"
            or (adv is not None and ADVERBS[adv][2] == "pre")):
        time = None  # no "he always sang yesterday", "he never sleeps tonight"
    en_head, en_vg, fr_vg = [], [], []
    neg_en = []  # English tokens that ne/pas/jamais link to
    adv_en = None
    adv_row = ADVERBS[adv] if adv else None
    fr_clitic = None
    clitic = dclitic or iclitic
    if clitic is not None:
        en_clitic = E(clitic.en)
        fr_clitic = F(clitic.fr, en_clitic, tag="clit")
    if modal is None:
        aux = ETRE if verb.aux == "être" else AVOIR
        # ---- English verb group ----
        if question:
            qw = {"pres": "Does" if s3 else "Do", "past": "Did", "fut": "Will"}[tense]
            q = E(qw)
            en_head.append(q)
            main = E(verb.base)
            en_vg = [main]
            tense_tok = q
        else:
            q = None
            pre_adv = []
            if adv_row and adv_row[2] == "pre":
                adv_en = [E(w) for w in adv_row[0]]
                pre_adv = adv_en
            if tense == "pres":
                if pol == "neg":
                    do, no = E("does" if s3 else "do"), E("not")
                    main = E(verb.base)
                    en_vg = [do, no, main]
                    neg_en, tense_tok = [no], do
                else:
                    main = E(verb.s3 if s3 else verb.base)
                    if pol == "never":
                        no = E("never")
                        en_vg, neg_en = [no] + pre_adv + [main], [no]
                    else:
                        en_vg = pre_adv + [main]
                    tense_tok = main
            elif tense == "past":
                if pol == "neg":
                    did, no = E("did"), E("not")
                    main = E(verb.base)
                    en_vg, neg_en, tense_tok = [did, no, main], [no], did
                else:
                    main = E(verb.past)
                    if pol == "never":
                        no = E("never")
                        en_vg, neg_en = [no, main], [no]
                    else:
                        en_vg = pre_adv + [main]
                    tense_tok = main
            else:
                will = E("will")
                main = E(verb.base)
                if pol in ("neg", "never"):
                    no = E("not" if pol == "neg" else "never")
                    en_vg, neg_en = [will, no, main], [no]
                else:
                    en_vg = [will] + pre_adv + [main]
                tense_tok = will
        particles = [E(w) for w in verb.particle]
        en_vg = en_vg + particles
        lex = [main] + particles  # English tokens carrying the lexical meaning
        # ---- French verb group ----
        if tense == "past" and verb.inf in IMPARFAIT_VERBS:
            # states in the past: il voulait, elle aimait (not "a voulu")
            fin = F(verb.imparfait(p), lex, tense_tok if tense_tok is not main else None, q)
            part = None
        elif tense == "past":
            if verb.aux == "être":
                g, n = subj.g, subj.n
            elif dclitic is not None:
                g, n = dclitic.g, dclitic.n
            elif rel_gap is not None:
                g, n = rel_gap.g, rel_gap.n
            else:
                g, n = "m", "sg"
            if pol == "neg":
                fin = F(aux.pres[p], tense_tok)
            else:
                fin = F(aux.pres[p], tense_tok, q)
            part = F(pp_form(verb.pp, g, n), lex)
        elif tense == "pres":
            fin = F(verb.pres[p], lex, tense_tok if tense_tok is not main else None, q)
            part = None
        else:
            fin = F(verb.fut_form(p), lex, tense_tok, q)
            part = None
        fr_vg = []
        if pol != "aff":
            fr_vg.append(F("ne", neg_en, tag="ne"))
        if fr_clitic is not None:
            fr_vg.append(fr_clitic)
        fr_vg.append(fin)
        if pol == "neg":
            fr_vg.append(F("pas", neg_en))
        elif pol == "never":
            fr_vg.append(F("jamais", neg_en))
        fr_adv = None
        if adv_row:
            if adv_en is None:
                adv_en = [E(w) for w in adv_row[0]]
            fr_adv = F(adv_row[1], adv_en)
            if part is None or adv_row[3] == "mid":
                fr_vg.append(fr_adv)
        if part is not None:
            fr_vg.append(part)
            if fr_adv is not None and adv_row[3] == "post":
                fr_vg.append(fr_adv)
        if "enter" in verb.comp:
            fr_vg.append(F("dans", lex))  # enter the house -> entrer dans la maison
        if question:
            fr_q = [F("Est-ce", q), F("que", q, tag="que")]
    else:
        # ---- modal + infinitive ----
        mverb = {"can": POUVOIR, "must": DEVOIR, "want": VOULOIR}[modal]
        main = E(verb.base)
        particles = [E(w) for w in verb.particle]
        q = None
        if modal == "can":
            if question:
                q = E("Can")
                en_head.append(q)
                mtoks, neg_en = [], []
                mod_en = [q]
            elif tense == "fut":
                w = E("will")
                no = [E("not")] if pol == "neg" else []
                be, able, to = E("be"), E("able"), E("to")
                mtoks = [w] + no + [be, able, to]
                mod_en, neg_en = [w, be, able, to], no
            elif pol == "neg":
                c = E("cannot")
                mtoks, mod_en, neg_en = [c], [c], [c]
            else:
                c = E("can")
                mtoks, mod_en, neg_en = [c], [c], []
        elif modal == "must":
            if tense == "fut":
                w, have, to = E("will"), E("have"), E("to")
                mtoks, mod_en, neg_en = [w, have, to], [w, have, to], []
            else:
                m = E("must")
                no = [E("not")] if pol == "neg" else []
                mtoks, mod_en, neg_en = [m] + no, [m], no
        else:  # want to
            to = E("to")
            if pol == "neg":
                do, no, want = E("does" if s3 else "do"), E("not"), E("want")
                mtoks, mod_en, neg_en = [do, no, want, to], [do, want, to], [no]
            else:
                want = E("wants" if s3 else "want")
                mtoks, mod_en, neg_en = [want, to], [want, to], []
        en_vg = mtoks + [main] + particles
        mfin_w = mverb.fut_form(p) if tense == "fut" else mverb.pres[p]
        fr_vg = []
        if pol == "neg":
            fr_vg.append(F("ne", neg_en, tag="ne"))
        fr_vg.append(F(mfin_w, mod_en, [t for t in neg_en if t.w == "cannot"]))
        if pol == "neg":
            fr_vg.append(F("pas", neg_en))
        if fr_clitic is not None:
            fr_vg.append(fr_clitic)  # il veut le voir
        fr_vg.append(F(verb.inf, main, particles))
        if "enter" in verb.comp:
            fr_vg.append(F("dans", main))
        if question:
            fr_q = [F("Est-ce", q), F("que", q, tag="que")]
    # ---- objects and the rest ----
    en_tail, fr_tail = [], []
    if iclitic is not None:
        en_tail.append(en_clitic)  # gives him the book
    if dclitic is not None:
        en_tail.append(en_clitic)
    if obj is not None:
        en_tail += obj.en
        fr_tail += obj.fr
    if recip is not None:
        to = E("to")
        en_tail += [to] + recip.en
        fr_tail += [F("à", to, tag="a")] + recip.fr
    if adv_row and adv_row[2] == "post" and modal is None:
        en_tail += adv_en
    if post is not None:
        en_tail += post[0]
        fr_tail += post[1]
    if time is not None:
        en_tail += time[0]
        fr_tail += time[1]
    en = en_head + subj.en + en_vg + en_tail
    fr = (fr_q if question else []) + subj.fr + fr_vg + fr_tail
    return en, fr


def clashes(np_, adj):
    """True if the subject already carries this adjective or its opposite."""
    return any(adj_clash(t.w, adj.en) for t in np_.en)


def copula_clause(subj, adj, tense, pol="aff", question=False, time=None):
    """NP is/was/will be ADJ -> NP est/était/sera ADJ (with agreement)."""
    p, s3 = subj.p, subj.p == 2
    if tense == "pres":
        w = "am" if p == 0 else ("is" if s3 else "are")
    elif tense == "past":
        w = "was" if p in (0, 2) else "were"
    else:
        w = "will"
    en_head, en_vg = [], []
    if question:
        q = E(w.capitalize())
        en_head = [q]
        be_toks = [q]
        if tense == "fut":
            b = E("be")
            en_vg = [b]
            be_toks.append(b)
        neg_en = []
    else:
        t = E(w)
        be_toks = [t]
        neg_en = []
        en_vg = [t]
        if pol == "neg":
            no = E("not")
            en_vg.append(no)
            neg_en = [no]
        if tense == "fut":
            b = E("be")
            en_vg.append(b)
            be_toks.append(b)
    a = E(adj.en)
    en = en_head + subj.en + en_vg + [a]
    if tense == "pres":
        fw = ETRE.pres[p]
    elif tense == "past":
        fw = IMPARFAIT["être"][p]  # was -> imparfait (était), the descriptive past
    else:
        fw = ETRE.fut_form(p)
    fr_vg = []
    if pol == "neg":
        fr_vg.append(F("ne", neg_en, tag="ne"))
    fr_vg.append(F(fw, be_toks))
    if pol == "neg":
        fr_vg.append(F("pas", neg_en))
    fr_vg.append(F(adj.form(subj.g, subj.n), a))
    fr = subj.fr + fr_vg
    if question:
        fr = [F("Est-ce", be_toks[0]), F("que", be_toks[0], tag="que")] + fr
    if time is not None:
        en += time[0]
        fr += time[1]
    return en, fr


# =============================================================================
# 4. SENTENCE TEMPLATES
# =============================================================================

TENSES = [("pres", 40), ("past", 35), ("fut", 25)]
POLS = [("aff", 72), ("neg", 22), ("never", 6)]


def pick_subject(rng, spec, allow_pron=True, allow_name=True):
    """Subject NP whose category fits the verb's subject spec."""
    human = "P" in spec
    r = rng.random()
    if human and allow_pron and r < 0.33:
        return pronoun_np(rng.choice([0, 1, 2, 2, 3, 3, 4, 5, 5]))
    if human and allow_name and r < 0.43:
        return name_np(rng.choice(NAMES))
    cands = [n for n in NOUN_LIST if n.matches(spec) and not n.mass]
    noun = rng.choice(cands)
    return random_np(rng, noun, "subj")


# What an animal subject can plausibly see, eat, look for, follow...
ANIMAL_OBJ_CATS = ("A", "F", "M", "D", "P")


def is_animal(np_):
    return np_ is not None and np_.noun is not None and np_.noun.cat == "A"


def compatible_objects(verb, avoid_mass=False, subj=None):
    out = [n for n in NOUN_LIST if n.matches(verb.comp)]
    if avoid_mass:
        out = [n for n in out if not n.mass]
    if is_animal(subj):
        out = [n for n in out if n.cat in ANIMAL_OBJ_CATS] or out
    return out


def subj_spec_for(verb, obj_noun):
    """Subject spec for a verb whose object is known: animals only act on
    animals, food and people (no "the cow looks for the magazine")."""
    if obj_noun.cat not in ANIMAL_OBJ_CATS and "P" in verb.subj:
        return [x for x in verb.subj if x != "A"]
    return verb.subj


def object_avoid(verb):
    """Adjectives that make no sense on this verb's object (break the broken lamp)."""
    return ("broken",) if verb.inf == "casser" else ()


def pick_object(rng, verb, neg=False, subj=None):
    """Direct object NP for a transitive verb (nouns, names, cities, countries)."""
    comp = verb.comp
    r = rng.random()
    if "CITY" in comp and r < 0.15:
        ce, cf = rng.choice(CITIES)
        t = E(ce)
        return NP([t], [F(cf, t)], 2, "m", "sg", kind="name")
    if "COUNTRY" in comp and r < 0.3:
        c = rng.choice(COUNTRIES)
        en, fr = country_phrase(c, None, "obj")
        g = "f" if c[2] == "f" else "m"
        return NP(en, fr, 2, g, "pl" if c[2] == "p" else "sg", kind="name")
    if "P" in comp and rng.random() < 0.12:
        return name_np(rng.choice(NAMES))
    noun = rng.choice(compatible_objects(verb, subj=subj))
    return random_np(rng, noun, "obj", neg=neg, generic=verb.generic,
                     avoid=object_avoid(verb))


def pick_tense_pol(rng, pol_ok=True):
    tense = wchoice(rng, TENSES)
    pol = wchoice(rng, POLS) if pol_ok else "aff"
    return tense, pol


def maybe_time(rng, tense, p=0.3):
    p = min(1.0, p * 1.4)
    return time_expr(rng, tense) if rng.random() < p else None


TR_VERBS = [v for v in VERBS if v.kind == "tr"]
CREATION_VERBS = {"construire", "faire", "écrire", "préparer", "dessiner", "peindre"}
DI_VERBS = [v for v in VERBS if v.kind == "di" or "both" in v.flags]
IN_VERBS = [v for v in VERBS if v.kind == "in" or "intr" in v.flags]
MV_VERBS = [v for v in VERBS if v.kind == "mv"]


def subject_fits(subj, verb):
    """A pronoun/name subject is human; noun subjects are chosen to fit."""
    if subj.kind in ("pron", "name"):
        return "P" in verb.subj
    return subj.noun.matches(verb.subj)


def transitive_clause(rng, subj=None, verb=None, tense=None, pol=None, obj=None,
                      time_p=0.3, loc_p=0.06, question=False):
    """SUBJ V OBJ [PP] [TIME]: the basic reordering-free frame."""
    if verb is None:
        verb = rng.choice(TR_VERBS)
    if subj is None:
        subj = pick_subject(rng, verb.subj)
    if tense is None:
        tense, pol = pick_tense_pol(rng, not question)
    if question:
        pol = "aff"
    if en_ambiguous_past(verb, subj, tense, pol, question):
        tense = "pres"
    if obj is None:
        obj = pick_object(rng, verb, neg=pol != "aff", subj=subj)
    post = random_locative(rng) if rng.random() < loc_p else None
    time = maybe_time(rng, tense, time_p)
    en, fr = clause(subj, verb, tense, pol, question=question, obj=obj, post=post, time=time)
    return en, fr, obj


def intransitive_clause(rng, subj=None, tense=None, pol=None, question=False,
                        loc_p=0.4, time_p=0.3):
    """SUBJ V [ADV] [PP] [TIME]: she sings well / elle chante bien."""
    while True:
        verb = rng.choice(IN_VERBS)
        if subj is None or subject_fits(subj, verb):
            break
    if subj is None:
        subj = pick_subject(rng, verb.subj)
    if tense is None:
        tense, pol = pick_tense_pol(rng, not question)
    if question:
        pol = "aff"
    if en_ambiguous_past(verb, subj, tense, pol, question):
        tense = "pres"
    adv = None
    if verb.advs and rng.random() < 0.45:
        adv = rng.choice(verb.advs)
        if ADVERBS[adv][2] == "pre" and pol != "aff":
            adv = None
        if question:
            adv = None
    post = None
    if verb.inf == "voyager":
        # travel in Italy / voyager en Italie, travel in Rome / voyager à Rome
        if rng.random() < 0.5:
            post = country_phrase(rng.choice(COUNTRIES), "in", "in")
        elif rng.random() < 0.6:
            post = city_pp(rng, "in", "à")
    elif rng.random() < loc_p:
        post = random_locative(rng, water=verb.inf == "nager" and rng.random() < 0.6)
    time = maybe_time(rng, tense, time_p)
    return clause(subj, verb, tense, pol, question=question, adv=adv, post=post, time=time)


TO_PLACES = [n for n in NOUN_LIST if "to" in n.flags]
ENTER_PLACES = [n for n in NOUN_LIST if n.cat == "B" and "in" in n.preps]


def movement_clause(rng, subj=None, tense=None, pol=None, question=False):
    """Movement verbs: passé composé with être and agreement (elle est partie)."""
    while True:
        verb = rng.choice(MV_VERBS)
        if subj is None or subject_fits(subj, verb):
            break
    if subj is None:
        subj = pick_subject(rng, verb.subj)
    if tense is None:
        tense, pol = pick_tense_pol(rng, not question)
    if question:
        pol = "aff"
    comp = verb.comp[0]
    post, obj = None, None
    r = rng.random()
    if comp == "to":
        if r < 0.15:
            post = city_pp(rng, "to", "à")
        elif r < 0.3:
            post = country_phrase(rng.choice(COUNTRIES), "to", "to")
        else:
            post = place_pp(rng, "at", rng.choice(TO_PLACES))
            post[0][0].w = "to"  # "to the park" / "au parc"
    elif comp == "from":
        if r < 0.15:
            post = city_pp(rng, "from", "de")
        elif r < 0.3:
            post = country_phrase(rng.choice(COUNTRIES), "from", "from")
        else:
            post = place_pp(rng, "at", rng.choice(TO_PLACES))
            post[0][0].w = "from"
            post[1][0].w, post[1][0].tag = "de", "de"
    elif comp == "at":
        if r < 0.15:
            post = city_pp(rng, "in", "à")
        elif r < 0.3:
            post = country_phrase(rng.choice(COUNTRIES), "in", "in")
        else:
            post = place_pp(rng, "at", rng.choice(TO_PLACES))
    elif comp == "enter":
        obj = random_np(rng, rng.choice(ENTER_PLACES), "loc", allow_of=False, plural=False)
    elif comp == "loc":
        if verb.inf == "tomber":
            # one falls in the garden / in the snow / on the road, not "in Berlin"
            if r < 0.6:
                post = random_locative(rng, city=False, cats=("L", "N"))
        else:
            post = random_locative(rng)
    far = comp in ("to", "from", "at") and r < 0.3  # a city or a country
    time = maybe_time(rng, tense, 0.35 if post is None else 0.2)
    if far and tense == "pres" and time is not None and time[0][0].w == "every":
        time = None  # "she goes to Japan every morning" is not plausible
    return clause(subj, verb, tense, pol, question=question, obj=obj, post=post, time=time)


def copula_sentence(rng, question=False):
    """The car is red. / La voiture est rouge. (predicate agreement)"""
    r = rng.random()
    tense = wchoice(rng, TENSES)
    pol = "aff" if question or rng.random() < 0.7 else "neg"
    if r < 0.2:
        idx = rng.choice([0, 1, 2, 3, 3, 4, 5])
        subj = pronoun_np(idx)
        adjs = [a for a in ADJS if "P" in a.spec and a.pred]
    elif r < 0.27:
        # body parts: ses yeux sont bleus
        noun = rng.choice([n for n in NOUN_LIST if n.cat == "Y"])
        subj = noun_phrase(rng, noun, "poss", "sg" if noun.en_sg == "nose" else "pl",
                           poss=rng.choice([0, 1, 2, 3, 4, 5]))
        adjs = [a for a in ADJS if a.fits(noun) and a.pred]
    else:
        noun = rng.choice([n for n in NOUN_LIST if n.cat != "Y"])
        subj = random_np(rng, noun, "cop", adjs=rng.random() < 0.3)
        adjs = [a for a in ADJS if a.fits(noun) and a.pred]
    if not adjs:
        return None
    adj = rng.choice(adjs)
    if clashes(subj, adj):
        return None
    time = maybe_time(rng, tense, 0.3) if adj.state else None
    return copula_clause(subj, adj, tense, pol, question=question, time=time)


def existential_sentence(rng):
    """There is a cat in the garden. / Il y a un chat dans le jardin."""
    tense = wchoice(rng, TENSES)
    neg = rng.random() < 0.25
    noun = rng.choice([n for n in NOUN_LIST if n.cat in ("P", "A", "V", "O", "U", "F", "R", "C", "D", "M")
                       and not {"part", "surface", "kin"} & set(n.flags)])
    if noun.mass:
        n = "sg"
    else:
        n = "pl" if rng.random() < 0.4 else "sg"
    pre, post = pick_adjs(rng, noun)
    en = []
    there = E("There")
    en.append(there)
    if tense == "pres":
        be = [E("are" if n == "pl" else "is")]
        fw = "a"
    elif tense == "past":
        be = [E("were" if n == "pl" else "was")]
        fw = "avait"
    else:
        be = [E("will"), E("be")]
        fw = "aura"
    en += be
    fr = [F("il", there)]
    if neg:
        no = E("no")
        en.append(no)
        fr.append(F("ne", no, tag="ne"))
        fr += [F("y", there), F(fw, be), F("pas", no)]
        np_ = noun_phrase(rng, noun, "bare", n, pre, post, neg=True)
        # "no" also links to the "de" that replaces the article
        np_.fr[0].links.append(no)
    else:
        fr += [F("y", there), F(fw, be)]
        if noun.mass:
            det = "bare"
        elif n == "pl":
            det = "num" if rng.random() < 0.35 else "bare"
        else:
            det = "a"
        number = rng.choice(NUMBERS) if det == "num" else None
        np_ = noun_phrase(rng, noun, det, n, pre, post, number=number)
    en += np_.en
    fr += np_.fr
    loc = thing_locative(rng, noun)
    if noun.en_sg in [t.w for t in loc[0]]:
        return None  # "a bucket in the bucket"
    en += loc[0]
    fr += loc[1]
    time = maybe_time(rng, tense, 0.15)
    if time:
        en += time[0]
        fr += time[1]
    return en, fr


def clitic_choices(subj):
    """Object pronouns that do not refer to the subject itself (no "I see me",
    "I help us", "you see you": those would need reflexive verbs)."""
    if subj.kind != "pron":
        return list(range(6))
    blocked = {0: {0, 4}, 1: {1}, 3: {0, 4}}.get(subj.p, set())
    return [i for i in range(6) if i not in blocked]


def ditransitive_sentence(rng):
    """give OBJ to NP / give PRONOUN OBJ: au/aux, lui/leur before the verb."""
    verb = rng.choice(DI_VERBS)
    subj = pick_subject(rng, verb.subj)
    tense, pol = pick_tense_pol(rng)
    noun = rng.choice([n for n in compatible_objects(verb)])
    obj = random_np(rng, noun, "obj", neg=pol != "aff", allow_of=False)
    time = maybe_time(rng, tense, 0.2)
    if rng.random() < 0.6:
        rnoun = rng.choice(nouns_matching(["P"]))
        if rng.random() < 0.25:
            recip = name_np(rng.choice(NAMES))
        else:
            if subj.noun is rnoun:
                return None
            recip = random_np(rng, rnoun, "recip", adjs=rng.random() < 0.4, allow_of=False)
        return clause(subj, verb, tense, pol, obj=obj, recip=recip, time=time)
    # indirect object pronoun: "gives him the book" -> "lui donne le livre"
    idx = rng.choice(clitic_choices(subj))
    row = PRONOUNS[idx]
    cl = Clitic(row[5], row[7], row[3], row[4])
    return clause(subj, verb, tense, pol, obj=obj, iclitic=cl, time=time)


def pronoun_object_sentence(rng):
    """She sees him. / Elle le voit.  He did not help us. / Il ne nous a pas aidés."""
    verb = rng.choice([v for v in TR_VERBS if "P" in v.comp])
    subj = pick_subject(rng, verb.subj)
    tense, pol = pick_tense_pol(rng)
    if en_ambiguous_past(verb, subj, tense, pol, False):
        tense = "pres"
    idx = rng.choice(clitic_choices(subj))
    row = PRONOUNS[idx]
    cl = Clitic(row[5], row[6], row[3], row[4])
    time = maybe_time(rng, tense, 0.3)
    return clause(subj, verb, tense, pol, dclitic=cl, time=time)


def modal_sentence(rng):
    """can / must / want to + infinitive; clitics go before the infinitive."""
    modal = wchoice(rng, [("can", 40), ("must", 30), ("want", 30)])
    if modal == "can":
        tense = "fut" if rng.random() < 0.35 else "pres"
    elif modal == "must":
        tense = "fut" if rng.random() < 0.25 else "pres"
    else:
        tense = "pres"
    pol = "neg" if rng.random() < 0.3 and not (modal == "must" and tense == "fut") else "aff"
    kind = rng.random()
    if kind < 0.45:
        verb = rng.choice([v for v in TR_VERBS if "stative" not in v.flags])
        subj = pick_subject(rng, verb.subj)
        obj = pick_object(rng, verb, neg=pol != "aff", subj=subj)
        return clause(subj, verb, tense, pol, obj=obj, modal=modal,
                      time=maybe_time(rng, tense, 0.2))
    if kind < 0.6:
        verb = rng.choice([v for v in TR_VERBS if "P" in v.comp and "stative" not in v.flags])
        subj = pick_subject(rng, verb.subj)
        row = PRONOUNS[rng.choice(clitic_choices(subj))]
        cl = Clitic(row[5], row[6], row[3], row[4])
        return clause(subj, verb, tense, pol, dclitic=cl, modal=modal)
    verb = rng.choice([v for v in IN_VERBS + MV_VERBS if v.inf != "tomber"])
    subj = pick_subject(rng, verb.subj)
    post = None
    if verb.kind == "mv" and verb.comp[0] == "to":
        post = place_pp(rng, "at", rng.choice(TO_PLACES))
        post[0][0].w = "to"
    elif rng.random() < 0.3 and (verb.kind == "in" or "loc" in verb.comp):
        post = random_locative(rng)
    obj = None
    if "enter" in verb.comp:
        obj = random_np(rng, rng.choice(ENTER_PLACES), "loc", allow_of=False, plural=False)
    return clause(subj, verb, tense, pol, obj=obj, post=post, modal=modal,
                  time=maybe_time(rng, tense, 0.2))


def any_clause(rng, question=False):
    r = rng.random()
    if r < 0.5:
        return transitive_clause(rng, question=question)[:2]
    if r < 0.75:
        return intransitive_clause(rng, question=question)
    return movement_clause(rng, question=question)


def coordinated_anaphora(rng):
    """She buys a car and he washes it. / Elle achète une voiture et il la lave."""
    verb1 = rng.choice(TR_VERBS)
    tense1, pol1 = pick_tense_pol(rng)
    pol1 = "aff"
    subj1 = pick_subject(rng, verb1.subj)
    if en_ambiguous_past(verb1, subj1, tense1, pol1, False):
        tense1 = "pres"
    # pick an object noun that some second verb can take
    noun = rng.choice(compatible_objects(verb1, subj=subj1))
    obj = random_np(rng, noun, "obj", generic=verb1.generic, allow_of=False,
                    avoid=("broken",))
    if obj.n == "sg" and noun.mass and not obj.en[0].w in ("the", "this"):
        return None  # "he drinks water and she ... it" is odd
    if obj.fr[0].w == "des" or (obj.en and obj.en[0].w not in ("the", "a", "this", "these",
                                                               "my", "your", "his", "her",
                                                               "our", "their")):
        if rng.random() < 0.7:
            return None
    # the second verb acts on an existing thing: not build/make/write/prepare
    verbs2 = [v for v in TR_VERBS if noun.matches(v.comp) and v is not verb1
              and v.inf not in CREATION_VERBS]
    if not verbs2:
        return None
    verb2 = rng.choice(verbs2)
    e1, f1 = clause(subj1, verb1, tense1, pol1, obj=obj)
    subj2 = pick_subject(rng, subj_spec_for(verb2, noun))
    # the second event follows the first: same tense, or present -> future,
    # past -> present
    tense2 = tense1
    if rng.random() < 0.2:
        tense2 = {"pres": "fut", "past": "pres", "fut": "fut"}[tense1]
    pol2 = "neg" if rng.random() < 0.25 else "aff"
    if en_ambiguous_past(verb2, subj2, tense2, pol2, False):
        tense2 = "pres"
    cl = anaphor(obj)
    e2, f2 = clause(subj2, verb2, tense2, pol2, dclitic=cl,
                    time=maybe_time(rng, tense2, 0.2))
    return join_clauses(rng, (e1, f1), (e2, f2), "but" if pol2 == "neg" else None)


def join_clauses(rng, c1, c2, conj=None):
    if conj is None:
        conj = wchoice(rng, [("and", 70), ("but", 30)])
    en, fr = list(c1[0]), list(c1[1])
    if conj == "and":
        a = E("and")
        en.append(a)
        fr.append(F("et", a))
    elif conj == "but":
        c, b = E(","), E("but")
        en += [c, b]
        fr += [F(",", c), F("mais", b)]
    elif conj == "because":
        b = E("because")
        en.append(b)
        fr += [F("parce", b), F("que", b, tag="que")]
    en += c2[0]
    fr += c2[1]
    return en, fr


def coordinated_free(rng):
    c1 = any_clause(rng)
    c2 = any_clause(rng)
    return join_clauses(rng, c1, c2)


FEELINGS = [a for a in ADJS if a.en in ("happy", "sad", "tired", "sick", "nervous")]


def feeling_clause(rng, tense):
    """A person in a temporary state: she is tired / elle est fatiguée."""
    if rng.random() < 0.5:
        subj = pronoun_np(rng.choice([0, 1, 2, 3, 4, 5]))
    else:
        subj = pick_subject(rng, ["P"], allow_pron=False)
    adj = rng.choice(FEELINGS)
    if clashes(subj, adj):
        return None
    return subj, copula_clause(subj, adj, tense, "neg" if rng.random() < 0.2 else "aff")


def pronoun_for(np_):
    """Index into PRONOUNS of the pronoun that refers back to np_."""
    if np_.p == 2:
        return 2 if np_.g == "m" else 3
    return {0: 0, 1: 1, 3: 4, 5: 5}[np_.p]


def because_sentence(rng):
    """A feeling and its cause, either way round:
    she is tired because she worked a lot / parce qu'elle a beaucoup travaillé."""
    tense = wchoice(rng, [("pres", 60), ("past", 40)])
    res = feeling_clause(rng, tense)
    if res is None:
        return None
    who, feel = res
    # usually the same person: Oscar is tired because he worked a lot
    subj = pronoun_np(pronoun_for(who)) if rng.random() < 0.7 else None
    # the cause happened before (or at the same time as) the feeling
    cause_tense = "past" if tense == "past" or rng.random() < 0.6 else "pres"
    r = rng.random()
    if r < 0.45:
        cause = intransitive_clause(rng, subj=subj, tense=cause_tense, pol="aff", time_p=0.2)
    elif r < 0.75:
        cause = movement_clause(rng, subj=subj, tense=cause_tense, pol=wchoice(rng, POLS))
    else:
        cause = transitive_clause(rng, subj=subj, tense=cause_tense,
                                  pol=wchoice(rng, POLS))[:2]
    return join_clauses(rng, feel, cause, "because")


def subject_relative(rng, head_noun=None, head=None):
    """the man who sees the dog / l'homme qui voit le chien (verb agrees with head)."""
    if head is None:
        head = random_np(rng, head_noun, "subj", allow_of=False)
    noun = head.noun
    rel_w = "who" if noun.cat == "P" else "that"
    rt = E(rel_w)
    rel_subj = NP([rt], [F("qui", rt)], head.p, head.g, head.n, noun=noun, kind="rel")
    r = rng.random()
    tense = wchoice(rng, TENSES)
    if r < 0.65:
        verbs = [v for v in TR_VERBS if noun.matches(v.subj)]
        if not verbs:
            return None
        verb = rng.choice(verbs)
        if en_ambiguous_past(verb, rel_subj, tense, "aff", False):
            tense = "pres"
        obj = pick_object(rng, verb, subj=rel_subj)
        if obj.en and obj.en[-1].w == noun.en_sg:
            return None
        e, f = clause(rel_subj, verb, tense, "aff", obj=obj)
    else:
        # no time adverb inside the relative: "the man who sleeps tonight eats"
        # would be ambiguous about which verb the adverb modifies
        e, f = intransitive_clause(rng, subj=rel_subj, tense=tense, pol="aff",
                                   loc_p=0.3, time_p=0.0)
    return NP(head.en + e, head.fr + f, head.p, head.g, head.n, noun=noun)


def object_relative(rng, head_noun, verb=None, neg=False, no_creation=False,
                    main_verb=None, tense=None):
    """the book that she reads / le livre qu'elle lit; participle agrees with que:
    la lettre qu'elle a écrite."""
    verbs = [v for v in TR_VERBS if head_noun.matches(v.comp) and v is not main_verb
             and not (no_creation and v.inf in CREATION_VERBS)]
    if verb is None:
        if not verbs:
            return None
        verb = rng.choice(verbs)
    avoid = object_avoid(verb) + (object_avoid(main_verb) if main_verb else ())
    head = random_np(rng, head_noun, "subj", allow_of=False, neg=neg, avoid=avoid)
    subj = pick_subject(rng, subj_spec_for(verb, head_noun))
    if tense is None:
        tense = wchoice(rng, TENSES)
    if en_ambiguous_past(verb, subj, tense, "aff", False):
        tense = "pres"
    t = E("that")
    e, f = clause(subj, verb, tense, "aff", rel_gap=head)
    return NP(head.en + [t] + e, head.fr + [F("que", t, tag="que")] + f,
              head.p, head.g, head.n, noun=head_noun)


def relative_sentence(rng):
    r = rng.random()
    if r < 0.3:
        # relative clause on the subject
        verb = rng.choice(TR_VERBS + IN_VERBS + MV_VERBS)
        cands = [n for n in NOUN_LIST if n.matches(verb.subj) and not n.mass]
        head = subject_relative(rng, rng.choice(cands))
        if head is None:
            return None
        if verb.kind == "tr" and rng.random() < 0.6:
            return transitive_clause(rng, subj=head, verb=verb, time_p=0.1)[:2]
        if verb.kind == "mv":
            return movement_clause(rng, subj=head)
        return intransitive_clause(rng, subj=head)
    if r < 0.5:
        # object relative on the subject: The cake that she made is delicious.
        noun = rng.choice([n for n in NOUN_LIST if not n.mass and
                           any(n.matches(v.comp) for v in TR_VERBS)])
        head = object_relative(rng, noun)
        if head is None:
            return None
        adjs = [a for a in ADJS if a.fits(noun) and a.pred and not clashes(head, a)]
        if not adjs:
            return None
        return copula_clause(head, rng.choice(adjs), wchoice(rng, TENSES),
                             "neg" if rng.random() < 0.2 else "aff")
    # relative clause on the object
    verb = rng.choice(TR_VERBS)
    subj = pick_subject(rng, verb.subj)
    tense, pol = pick_tense_pol(rng)
    pol = "aff" if rng.random() < 0.8 else "neg"
    if en_ambiguous_past(verb, subj, tense, pol, False):
        tense = "pres"
    cands = [n for n in compatible_objects(verb) if not n.mass]
    if not cands:
        return None
    noun = rng.choice(cands)
    if rng.random() < 0.5 and noun.cat in ("P", "A"):
        obj = subject_relative(rng, head=noun_phrase(rng, noun, "the",
                                                     "pl" if rng.random() < 0.3 else "sg"))
        if obj is None:
            return None
    else:
        # under negation an indefinite head becomes "de": pas de livre qu'elle a lu
        # "he builds the table that she built" makes no sense: one creation verb
        # a thing made in the main clause cannot have been used before it:
        # no "I will make pies that she ate"
        creation = verb.inf in CREATION_VERBS
        obj = object_relative(rng, noun, neg=pol != "aff", no_creation=creation,
                              main_verb=verb, tense=tense if creation else None)
        if obj is None:
            return None
    return clause(subj, verb, tense, pol, obj=obj)


def question_sentence(rng):
    r = rng.random()
    if r < 0.25:
        return copula_sentence(rng, question=True)
    if r < 0.35:
        verb = rng.choice(IN_VERBS)
        subj = pick_subject(rng, verb.subj)
        return clause(subj, verb, "pres", "aff", modal="can", question=True)
    return any_clause(rng, question=True)


TEMPLATES = [
    ("transitive", 10, lambda rng: transitive_clause(rng)[:2]),
    ("intransitive", 5, intransitive_clause),
    ("movement", 8, movement_clause),
    ("copula", 5, copula_sentence),
    ("existential", 5, existential_sentence),
    ("ditransitive", 7, ditransitive_sentence),
    ("pronoun_object", 4, pronoun_object_sentence),
    ("modal", 6, modal_sentence),
    ("coord_anaphora", 16, coordinated_anaphora),
    ("coord_free", 12, coordinated_free),
    ("because", 3, because_sentence),
    ("relative", 17, relative_sentence),
    ("question", 4, question_sentence),
]


# =============================================================================
# 5. SURFACE POST-PROCESSING
# =============================================================================

# Words whose initial sound blocks elision and contraction (h aspiré, numbers).
NO_ELISION = {"onze", "huit", "haut", "héros", "hibou", "hache", "haricot"}
FR_VOWELS = set("aàâeéèêëiîïoôœuùûyh")  # every h-word in the lexicon has a mute h
ELIDABLE = {"le", "la", "je", "me", "te", "de", "ne", "que"}


def fr_vowel(word):
    w = word.lower()
    return w not in NO_ELISION and w[0] in FR_VOWELS


def postprocess_fr(toks):
    """Elision (l', d', n', qu', j', m', t'), cet/mon before vowels, then the
    contractions au/aux/du/des (à/de + definite article)."""
    out = []
    for i, t in enumerate(toks):
        nxt = toks[i + 1].w if i + 1 < len(toks) else "."
        w = t.w
        if t.tag in ("art", "clit", "el", "de", "ne", "que") and w.lower() in ELIDABLE:
            if nxt[0].isalpha() and fr_vowel(nxt):
                w = w[:-1] + "'"
        elif t.tag == "dem" and fr_vowel(nxt):
            w = "cet"
        elif t.tag == "possf" and fr_vowel(nxt):
            w = {"ma": "mon", "ta": "ton", "sa": "son"}[w]
        out.append(Tok(w, t.links, t.tag))
    merged = []
    i = 0
    while i < len(out):
        t = out[i]
        if i + 1 < len(out) and out[i + 1].tag == "art" and out[i + 1].w in ("le", "les"):
            key = (t.w, out[i + 1].w)
            new = {("à", "le"): "au", ("à", "les"): "aux",
                   ("de", "le"): "du", ("de", "les"): "des"}.get(key)
            if new is not None and t.tag in ("a", "de"):
                links = t.links + [l for l in out[i + 1].links if l not in t.links]
                merged.append(Tok(new, links, None))
                i += 2
                continue
        merged.append(t)
        i += 1
    return merged


EN_AN_EXCEPT = {"university", "universities", "uniform", "useful", "european", "one"}


def postprocess_en(toks):
    """a -> an before a vowel sound."""
    for i, t in enumerate(toks):
        if t.tag == "a_art" and i + 1 < len(toks):
            nxt = toks[i + 1].w.lower()
            if nxt[0] in "aeiou" and nxt not in EN_AN_EXCEPT:
                t.w = "an"
    return toks


def capitalize_first(toks):
    w = toks[0].w
    toks[0].w = w[0].upper() + w[1:]


NO_SPACE_BEFORE = {".", ",", "?", "!", ";", ":"}


def detok(words):
    """Join tokens: no space before punctuation, none after an apostrophe."""
    s = ""
    for i, w in enumerate(words):
        if i > 0 and w not in NO_SPACE_BEFORE and not words[i - 1].endswith("'"):
            s += " "
        s += w
    return s


# =============================================================================
# 6. TOKENIZER SELF-CHECK, SPLITS, OUTPUT
# =============================================================================

def _is_word_char(c):
    return unicodedata.category(c)[0] in ("L", "M", "N")


def _is_letter(c):
    return unicodedata.category(c)[0] == "L"


def word_tokenize(line):
    """Python mirror of the project's C++ `word` tokenizer (see module doc)."""
    toks = []
    for chunk in line.split():
        cur = ""
        n = len(chunk)
        for i, c in enumerate(chunk):
            prev = chunk[i - 1] if i > 0 else ""
            nxt = chunk[i + 1] if i + 1 < n else ""
            if _is_word_char(c):
                cur += c
            elif c == "-" and cur and prev and nxt and _is_word_char(prev) and _is_word_char(nxt):
                cur += c
            elif (c in ".," and cur and prev and nxt and unicodedata.category(prev)[0] == "N"
                  and unicodedata.category(nxt)[0] == "N"):
                cur += c
            elif c in "'\u2019" and cur and prev and nxt and _is_letter(prev) and _is_letter(nxt):
                toks.append(cur + c)
                cur = ""
            else:
                if cur:
                    toks.append(cur)
                    cur = ""
                toks.append(c)
        if cur:
            toks.append(cur)
    return toks


class Pair:
    __slots__ = ("en", "fr", "align", "template")

    def __init__(self, en, fr, align, template):
        self.en, self.fr, self.align, self.template = en, fr, align, template


def finalize(en, fr, question, template):
    """Post-process both sides, add final punctuation, compute the alignment."""
    en = postprocess_en(list(en))
    fr = postprocess_fr(list(fr))
    p_en = E("?" if question else ".")
    en.append(p_en)
    fr.append(F("?" if question else ".", p_en))
    capitalize_first(en)
    capitalize_first(fr)
    index = {id(t): i for i, t in enumerate(en)}
    assert len(index) == len(en), "English token object reused"
    align = set()
    for j, t in enumerate(fr):
        assert t.links, "unaligned French token %r in %s" % (t.w, detok([x.w for x in fr]))
        for l in t.links:
            assert id(l) in index, "dangling link %r -> %r" % (t.w, l.w)
            align.add((index[id(l)], j))
    covered = {i for i, _ in align}
    for i, t in enumerate(en):
        assert i in covered, "unaligned English token %r in %s" % (
            t.w, detok([x.w for x in en]))
    en_words = [t.w for t in en]
    fr_words = [t.w for t in fr]
    return Pair(en_words, fr_words, sorted(align), template)


MIN_LEN, MAX_LEN = 4, 30


def generate_pair(rng):
    while True:
        name, _, fn = TEMPLATES[wchoice(rng, [(i, t[1]) for i, t in enumerate(TEMPLATES)])]
        res = fn(rng)
        if res is None:
            continue
        en, fr = res
        question = en[0].w in ("Does", "Do", "Did", "Will", "Can", "Is", "Are", "Am",
                               "Was", "Were")
        pair = finalize(en, fr, question, name)
        if not (MIN_LEN <= len(pair.en) <= MAX_LEN and MIN_LEN <= len(pair.fr) <= MAX_LEN):
            continue
        return pair


def check_pair(pair, en_line, fr_line):
    """Self-check: the written lines re-tokenize to exactly the generator tokens."""
    if word_tokenize(en_line) != pair.en:
        raise SystemExit("tokenizer mismatch (en): %r vs %r" % (word_tokenize(en_line), pair.en))
    if word_tokenize(fr_line) != pair.fr:
        raise SystemExit("tokenizer mismatch (fr): %r vs %r" % (word_tokenize(fr_line), pair.fr))
    if "'" in en_line or "\u2019" in en_line:
        raise SystemExit("apostrophe on the English side: %r" % en_line)
    if not (unicodedata.is_normalized("NFC", en_line) and unicodedata.is_normalized("NFC", fr_line)):
        raise SystemExit("line not in Unicode NFC: %r" % fr_line)
    for i, j in pair.align:
        if not (0 <= i < len(pair.en) and 0 <= j < len(pair.fr)):
            raise SystemExit("alignment out of range in %r" % en_line)


def generate(seed, n_train, n_valid, n_test):
    rng = random.Random(seed)
    total = n_train + n_valid + n_test
    seen = {}  # English line -> French line (insertion-ordered dict)
    pairs = []
    attempts = 0
    while len(pairs) < total:
        attempts += 1
        if attempts > total * 20:
            raise SystemExit("could not generate enough distinct sentences")
        pair = generate_pair(rng)
        en_line, fr_line = detok(pair.en), detok(pair.fr)
        if en_line in seen:
            # the grammar is deterministic: one English sentence, one translation
            if seen[en_line] != fr_line:
                raise SystemExit("two translations for %r:\n  %r\n  %r" %
                                 (en_line, seen[en_line], fr_line))
            continue
        check_pair(pair, en_line, fr_line)
        seen[en_line] = fr_line
        pairs.append(pair)
    # sentences are already in random order and all sources are distinct, so
    # consecutive slices give disjoint splits
    test = pairs[:n_test]
    valid = pairs[n_test:n_test + n_valid]
    train = pairs[n_test + n_valid:]
    return train, valid, test


def write_split(out_dir, name, pairs, with_align):
    def w(path, lines):
        with open(os.path.join(out_dir, path), "w", encoding="utf-8", newline="\n") as f:
            for line in lines:
                assert line and "\n" not in line
                f.write(line + "\n")
    w(name + ".en", [detok(p.en) for p in pairs])
    w(name + ".fr", [detok(p.fr) for p in pairs])
    if with_align:
        w(name + ".align", [" ".join("%d-%d" % a for a in p.align) for p in pairs])


def stats(splits):
    lines = []
    vocab = {"en": set(), "fr": set()}
    for name, pairs in splits:
        for side in ("en", "fr"):
            lens = [len(getattr(p, side)) for p in pairs]
            for p in pairs:
                vocab[side].update(getattr(p, side))
            lines.append("%-5s %s: %6d sentences %7d tokens  len min/mean/max %d/%.2f/%d" % (
                name, side, len(pairs), sum(lens), min(lens), sum(lens) / len(lens), max(lens)))
    lines.append("vocabulary (all splits, case-sensitive token types): en %d, fr %d" % (
        len(vocab["en"]), len(vocab["fr"])))
    train = splits[0][1]
    tv = {"en": set(), "fr": set()}
    for p in train:
        tv["en"].update(p.en)
        tv["fr"].update(p.fr)
    lines.append("vocabulary (train only): en %d, fr %d" % (len(tv["en"]), len(tv["fr"])))
    counts = {}
    for _, pairs in splits:
        for p in pairs:
            counts[p.template] = counts.get(p.template, 0) + 1
    lines.append("templates: " + ", ".join("%s %d" % (k, counts[k]) for k, _, _ in
                                           TEMPLATES if k in counts))
    n_lemmas = (len(NOUN_LIST) + len(ADJS) + len({(v.base, v.inf) for v in VERBS})
                + len(NAMES) + len(CITIES) + len(COUNTRIES) + len(NUMBERS) + len(ADVERBS))
    lines.append("lexicon: %d nouns, %d adjectives, %d verbs, %d names, %d cities, "
                 "%d countries, %d numerals, %d adverbs (%d content entries)" % (
                     len(NOUN_LIST), len(ADJS), len(VERBS), len(NAMES), len(CITIES),
                     len(COUNTRIES), len(NUMBERS), len(ADVERBS), n_lemmas))
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="output directory (created if missing)")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--train", type=int, default=20000)
    ap.add_argument("--valid", type=int, default=1000)
    ap.add_argument("--test", type=int, default=1000)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    train, valid, test = generate(args.seed, args.train, args.valid, args.test)
    os.makedirs(args.out, exist_ok=True)
    write_split(args.out, "train", train, False)
    write_split(args.out, "valid", valid, True)
    write_split(args.out, "test", test, True)
    if not args.quiet:
        print(stats([("train", train), ("valid", valid), ("test", test)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())

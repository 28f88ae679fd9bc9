"""Lexicon tables, part 1: the common nouns.

Data only; lexicon.py turns each line into a Noun.
"""

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

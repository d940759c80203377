/** Name lists for seeded members. */
export const FIRST_NAMES = [
  'Olivia', 'Liam', 'Emma', 'Noah', 'Ava', 'Oliver', 'Sophia', 'Elijah', 'Isabella', 'James',
  'Mia', 'William', 'Amelia', 'Benjamin', 'Harper', 'Lucas', 'Evelyn', 'Henry', 'Abigail', 'Alexander',
  'Emily', 'Mateo', 'Sofia', 'Daniel', 'Camila', 'Diego', 'Valentina', 'Santiago', 'Lucia', 'Javier',
  'Aisha', 'Omar', 'Fatima', 'Yusuf', 'Priya', 'Arjun', 'Ananya', 'Rohan', 'Mei', 'Hiroshi',
  'Yuki', 'Chen', 'Lina', 'Kofi', 'Amara', 'Chinedu', 'Zanele', 'Thabo', 'Ingrid', 'Lars',
  'Freya', 'Nils', 'Marta', 'Piotr', 'Chloe', 'Louis', 'Giulia', 'Marco', 'Grace', 'Samuel',
];

export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin',
  'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson',
  'Patel', 'Sharma', 'Khan', 'Singh', 'Okafor', 'Mensah', 'Nkosi', 'Tanaka', 'Sato', 'Wang',
  'Kim', 'Nguyen', 'Silva', 'Santos', 'Rossi', 'Bianchi', 'Dubois', 'Moreau', 'Schmidt', 'Fischer',
  'Johansson', 'Andersson', 'Nowak', 'Kowalski', "O'Brien", 'Murphy', 'Walsh', 'Fernandez', 'Costa', 'Ali',
];

/**
 * The demo company's questions and answers, in English and Spanish. Listed newest first, so each is dated
 * a minute before the one above it: the list reads in the order written here.
 */
import { sql } from 'drizzle-orm';
import type { Seeder } from '../seed';
import { sanitizeHtml } from '../lib/sanitize';

type Qa = [question: string, answer: string];

const EN: Qa[] = [
  ['How do I request a payout?', '<p>Open <strong>Wallet → Request payout</strong>, enter the amount and confirm with your account password. Requests are reviewed within two business days.</p>'],
  ['When are commissions paid into my wallet?', '<p>Referral and level commissions are credited as soon as the order they come from is paid. Binary bonuses are calculated every night and credited the next morning.</p>'],
  ['What is the minimum payout amount?', '<p>The minimum and maximum amounts, and any fee, are shown on the payout page before you confirm. They are set by the company and may change with notice.</p>'],
  ['Why do I need to verify my identity (KYC)?', '<p>We are required to know who receives money from us. Upload a government-issued ID under <strong>Account → KYC</strong>; payouts may stay on hold until it is approved.</p>'],
  ['How long does identity verification take?', '<p>Most documents are reviewed within 24 hours on business days. If a document is rejected you will see the reason and can submit a new one.</p>'],
  ['How does the binary plan place new members?', '<p>Each member has a left and a right leg. New members you sponsor are placed on your default leg, in the first free position below you, unless you choose a placement when signing them up.</p>'],
  ['What are PV and TV?', '<p><strong>PV</strong> (personal volume) is the business volume of your own purchases. <strong>TV</strong> (team volume) adds the volume of everyone in your downline. Ranks and bonuses are based on both.</p>'],
  ['How do I change my password?', '<p>Go to <strong>Account → Password</strong>, enter your current password and the new one twice. Every other device signed in to your account is signed out.</p>'],
  ['Can I change my sponsor or my position in the tree?', '<p>No. Your sponsor and placement are fixed once your account is created, so that everyone\'s commissions stay correct. Contact support if a placement was made by mistake on the day you joined.</p>'],
  ['How do I share my referral link?', '<p>Your link is on the dashboard and under <strong>Promo links</strong>. Anyone who signs up through it is registered with you as their sponsor.</p>'],
  ['How can I download my personal data?', '<p>Open <strong>Account</strong> and choose <em>Download my data</em>. You receive a file with everything we hold about you: profile, addresses, orders, payouts, transactions and sign-in history.</p>'],
  ['What happens if I delete my account?', '<p>You are signed out everywhere and can no longer sign in. Your name, e-mail, phone, photo and addresses are removed. Commissions and the team structure keep their history under an anonymous placeholder, so your upline\'s records stay correct. This cannot be undone.</p>'],
];

const ES: Qa[] = [
  ['¿Cómo solicito un retiro?', '<p>Abre <strong>Billetera → Solicitar retiro</strong>, indica el importe y confirma con la contraseña de tu cuenta. Las solicitudes se revisan en un plazo de dos días hábiles.</p>'],
  ['¿Cuándo se abonan las comisiones en mi billetera?', '<p>Las comisiones por referido y por nivel se abonan en cuanto se paga el pedido del que proceden. Los bonos binarios se calculan cada noche y se abonan a la mañana siguiente.</p>'],
  ['¿Cuál es el importe mínimo de retiro?', '<p>Los importes mínimo y máximo, y la comisión si la hay, se muestran en la página de retiro antes de confirmar. Los fija la empresa y pueden cambiar con aviso previo.</p>'],
  ['¿Por qué debo verificar mi identidad (KYC)?', '<p>Estamos obligados a saber quién recibe dinero de nosotros. Sube un documento oficial en <strong>Cuenta → KYC</strong>; los retiros pueden quedar retenidos hasta que se apruebe.</p>'],
  ['¿Cuánto tarda la verificación de identidad?', '<p>La mayoría de los documentos se revisan en 24 horas en días hábiles. Si se rechaza un documento verás el motivo y podrás enviar otro.</p>'],
  ['¿Cómo coloca el plan binario a los nuevos miembros?', '<p>Cada miembro tiene una pierna izquierda y una derecha. Los miembros que patrocinas se colocan en tu pierna predeterminada, en la primera posición libre debajo de ti, salvo que elijas otra colocación al registrarlos.</p>'],
  ['¿Qué son el PV y el TV?', '<p>El <strong>PV</strong> (volumen personal) es el volumen de negocio de tus propias compras. El <strong>TV</strong> (volumen de equipo) suma el volumen de toda tu línea descendente. Los rangos y los bonos se basan en ambos.</p>'],
  ['¿Cómo cambio mi contraseña?', '<p>Ve a <strong>Cuenta → Contraseña</strong>, escribe la contraseña actual y la nueva dos veces. Se cerrará la sesión en todos los demás dispositivos.</p>'],
  ['¿Puedo cambiar de patrocinador o de posición en el árbol?', '<p>No. El patrocinador y la colocación quedan fijados al crear la cuenta, para que las comisiones de todos sigan siendo correctas. Escribe a soporte si la colocación fue un error el mismo día de tu alta.</p>'],
  ['¿Cómo comparto mi enlace de referido?', '<p>Tu enlace está en el panel y en <strong>Enlaces promocionales</strong>. Quien se registre con él queda inscrito con tu usuario como patrocinador.</p>'],
  ['¿Cómo descargo mis datos personales?', '<p>Abre <strong>Cuenta</strong> y elige <em>Descargar mis datos</em>. Recibirás un archivo con todo lo que guardamos sobre ti: perfil, direcciones, pedidos, retiros, movimientos e historial de inicios de sesión.</p>'],
  ['¿Qué pasa si elimino mi cuenta?', '<p>Se cierra tu sesión en todas partes y ya no podrás entrar. Se borran tu nombre, correo, teléfono, foto y direcciones. Las comisiones y la estructura del equipo conservan su historial bajo un marcador anónimo, para que los registros de tu línea ascendente sigan siendo correctos. No se puede deshacer.</p>'],
];

const BASE = Date.UTC(2026, 0, 15, 9);

export const faqsSeeder: Seeder = async ({ db }) => {
  for (const [code, list] of [['en', EN], ['es', ES]] as const) {
    for (const [i, [question, answer]] of list.entries()) {
      const at = new Date(BASE - i * 60_000).toISOString();
      await db.execute(sql`INSERT INTO faqs (language_code, question, answer, created_at) VALUES (${code}, ${question}, ${sanitizeHtml(answer)}, ${at}::timestamptz)`);
    }
  }
};
